#!/usr/bin/env bash
# Install Focus Arcade as a boot-time kiosk on Raspberry Pi OS (Bookworm, Pi 4 or Pi 5).
# Run from a clone of the repository:  sudo kiosk/install.sh [user]
set -euo pipefail
user=${1:-${SUDO_USER:-pi}}
home=$(getent passwd "$user" | cut -d: -f6)
repo=$(cd "$(dirname "$0")/.." && pwd)
venv=$home/.local/share/focus-arcade/venv

apt-get update
apt-get install -y python3-venv python3-lgpio
# --system-site-packages: use Raspberry Pi OS's python3-lgpio (the Pi 5 needs lgpio).
sudo -u "$user" python3 -m venv --system-site-packages "$venv"
sudo -u "$user" "$venv/bin/pip" install --upgrade pip
sudo -u "$user" "$venv/bin/pip" install "$repo"

cfg=$home/.config/focus-arcade
sudo -u "$user" mkdir -p "$cfg"
if [ ! -f "$cfg/arcade.toml" ]; then
  sed -e 's/^fullscreen = false/fullscreen = true/' \
      -e 's/^kiosk = false/kiosk = true/' \
      -e 's/^stations = .*/stations = ["gpio", "gpio", "gpio", "gpio"]/' \
      -e 's/^pin_factory = ""/pin_factory = "lgpio"/' \
      -e 's/^port = "virtual".*/port = "auto"/' \
      "$repo/kiosk/default.toml" | sudo -u "$user" tee "$cfg/arcade.toml" >/dev/null
  echo "Wrote $cfg/arcade.toml: set [led] usb_id to your LED controller's VID:PID (lsusb)."
fi
usermod -aG video,render,input,gpio,audio,dialout "$user"

sed -e "s#@USER@#$user#g" -e "s#@HOME@#$home#g" -e "s#@VENV@#$venv#g" \
    "$repo/kiosk/systemd/focus-arcade.service" > /etc/systemd/system/focus-arcade.service
systemctl daemon-reload
systemctl enable --now focus-arcade.service
echo "Focus Arcade is running on tty1.  Logs: journalctl -u focus-arcade -f"
