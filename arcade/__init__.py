"""The shared rule modules of Focus Arcade.

Pure Python, standard library only: no pygame, gpiozero, serial, clock or global
random.  The TV (``kiosk``), the LED matrix (``firmware_bridge``), the computer
players (``arcade.bots``) and the tests all use these modules, so every screen
and every robot plays by one set of rules.
"""
