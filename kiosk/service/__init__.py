"""The appliance's operator side: ``doctor`` (:mod:`~kiosk.service.doctor`), the service menu's pure
parts (:mod:`~kiosk.service.tools`), saving settings (:mod:`~kiosk.service.config_save`), leaving
the arcade (:mod:`~kiosk.service.power`), clean stops on signals (:mod:`~kiosk.service.stopping`) and
systemd's notifications (:mod:`~kiosk.service.systemd`)."""
