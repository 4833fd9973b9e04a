"""The program on the TV: configuration, the pygame-ce scene stack, persistence,
start-up and the command line (``focus-arcade``)."""
