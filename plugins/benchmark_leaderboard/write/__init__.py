"""Write: what reaches the output folder. The one place files are written and announced (writer),
what a build may write, remove or keep there (output), and the kinds of work the writing map gives
its workers (work)."""
