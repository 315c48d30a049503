from memcli.adapters.cli.entry import main

main()
