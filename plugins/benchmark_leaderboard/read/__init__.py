"""Read: find the archive's files and read each once (archive), the model manifest and its signed
bundle (manifest, signature), check them against the shipped JSON Schemas (validate), keep the
canonical bytes every published copy takes (canonical), and read a leaderboard another build
published (leaderboard_file). Nothing here decides an order or writes a file."""
