"""The station controls: keyboard, gamepads and GPIO buzzers turned into station events
(:mod:`kiosk.controls.input`), and those events turned into menu actions (:mod:`kiosk.controls.gestures`)."""
