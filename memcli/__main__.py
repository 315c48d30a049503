from memcli.adapters.cli.main import main

main()
