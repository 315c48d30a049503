"""What every adapter calls: the memory (reads, index lifecycle), its writer, doctor."""
