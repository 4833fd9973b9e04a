"""The operator's service menu, and the PIN that guards it.

Opening: press ``[service] combo`` (default P1's and P2's OK; with buzzers only, P1's and P2's
buzzers) together on the title screen (or in the attract loop) and hold them, nothing else
pressed, for ``hold_s`` seconds (default 3) (kiosk/service/tools.py, ``Combination``: in a
game, the lobby or the results these are the guests' buttons and open nothing); then enter
``[service] pin`` with left/right (or buzzer taps) and OK (or a buzzer hold).  Three
wrong PINs in a row lock the menu, longer with each lock; the lock survives a restart
(kiosk/service/tools.py, ``PinLock``).

Moving in the menu, from any seat's station (kiosk/controls/gestures.py): left/right (or a buzzer
tap) move the highlight, OK (or a buzzer hold of 0.6 s) chooses, X (or a 2 s hold) goes
back.  A buzzer acts when it is let go (``ReleaseGestures``): a long hold never chooses
first.  On a value, OK starts changing it: left/right change it, OK keeps it; with a
buzzer a tap steps it, a hold turns the direction round (so does the end of its range)
and a long hold keeps it; quick taps (0.8 s apart at most) step 10, then 100 times as far (a third of the range at most).  In the button test every control is under test, so the way
back is the opening combination held again.  Keyboard (for a developer): arrows, Enter,
Backspace.  Every page says its gestures (only the buzzer's with buzzers only).

Leaving a page goes back to the menu with the highlight on that page's row
(``menu.ServiceScene.to_menu``).

Pages: button test, LED test, sound test and volume, settings (saved to the configuration
file with "Save", in force after the restart, the language at once: the next frame speaks it;
left without it: the changes are dropped and the menu says so), change the PIN, reset high scores, restart the arcade,
stop the arcade, shut the Pi down, restart the Pi.

Where it is (driving apart from drawing; the pure parts, no pygame, are kiosk/service/tools.py):

* ``pin.py``: the way in: the combination in words, the PIN lock and the PIN screen's driving;
  ``pin_panel.py`` draws that screen.
* ``rows.py``: what the pages offer: the menu's rows, the settings (``Setting``), the LED test's
  patterns and the pictures they send, the sounds.
* ``state.py``: what the menu holds (page, highlight, values being changed) and its clock.
* ``menu.py``: ``ServiceScene``, the driving: the gestures and keys, moving between pages,
  changing a value; ``actions.py``: what choosing does (saving, the PIN, high scores, restart
  and power).
* The drawing: ``pages.py`` (the title, the gestures line, the list pages, the new PIN),
  ``status_panel.py`` (the status along the bottom), ``button_page.py`` (the button test),
  ``led_page.py`` (the LED test).
"""
