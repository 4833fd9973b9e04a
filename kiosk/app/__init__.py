"""The running arcade: the frame loop and the scene switching (:mod:`~kiosk.app.loop`, the
``App`` every scene sees as :class:`kiosk.scene.Host`) and the parts it hands its work to."""
