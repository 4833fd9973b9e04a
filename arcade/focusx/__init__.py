"""FocusX: the shout game (seed ``001_9b6e278103859076.txt``).

``cards`` holds the 64-card deck and focus detection shared by every mode;
each mode is its own module with a ``Game`` and a ``State``.
"""
