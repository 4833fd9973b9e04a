#!/usr/bin/env bash
# Install Focus Arcade as a boot-time kiosk on Raspberry Pi OS (Bookworm, Pi 4 or Pi 5).
# Run from a clone of the repository:  sudo kiosk/install.sh [admin-user]
#
# The arcade runs as its own system user "focus-arcade" (no sudo, no login), from a
# virtual environment in /opt/focus-arcade/venv, with its configuration in
# /etc/focus-arcade/arcade.toml and its results in /var/lib/focus-arcade.  An older
# install's configuration and results in the admin user's home are copied over once.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# --- The service user, its folders and its unit (issue 11: the hardened unit) -------
# Kept in these functions so the rest of the script (system libraries, the package
# install, the first configuration) can change without touching them.
service_user=focus-arcade
prefix=/opt/focus-arcade
venv=$prefix/venv
cfg=/etc/focus-arcade
state=/var/lib/focus-arcade

focus_arcade_service_user() {
  local admin=$1
  local group
  if ! id -u "$service_user" >/dev/null 2>&1; then
    useradd --system --home-dir "$state" --no-create-home --shell /usr/sbin/nologin \
            --user-group --comment "Focus Arcade kiosk" "$service_user"
  fi
  # The devices it opens: GPIO chip, display (DRM), input, sound, serial LED controller, tty1.
  for group in gpio video render input audio dialout tty; do
    getent group "$group" >/dev/null && usermod -aG "$group" "$service_user"
  done
  # Never an administrator: no sudo group, no sudoers entry.
  gpasswd -d "$service_user" sudo >/dev/null 2>&1 || true
  install -d -o root -g root -m 0755 "$prefix"
  install -d -o "$service_user" -g "$service_user" -m 0750 "$state" "$cfg"
  # Copy an older install's files from the admin user's home (kept there too).
  local home
  home=$(getent passwd "$admin" | cut -d: -f6 || true)
  if [ -n "$home" ] && [ -f "$home/.config/focus-arcade/arcade.toml" ] && [ ! -f "$cfg/arcade.toml" ]; then
    install -o "$service_user" -g "$service_user" -m 0640 "$home/.config/focus-arcade/arcade.toml" "$cfg/arcade.toml"
    echo "Copied $home/.config/focus-arcade/arcade.toml to $cfg/arcade.toml"
  fi
  local old=$home/.local/share/focus-arcade/arcade.sqlite3
  if [ -n "$home" ] && [ -f "$old" ] && [ ! -f "$state/focus-arcade/arcade.sqlite3" ]; then
    install -d -o "$service_user" -g "$service_user" -m 0750 "$state/focus-arcade"
    # sqlite3's backup copies a consistent file even from a write-ahead log.
    python3 -c 'import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d)' \
            "$old" "$state/focus-arcade/arcade.sqlite3"
    chown "$service_user:$service_user" "$state/focus-arcade/arcade.sqlite3"
    echo "Copied the results from $old"
  fi
}

# Network sockets only when the configuration uses the network: the MQTT event link
# ([mqtt] or [event] section) or a Wi-Fi LED output (WLED / DDP / UDP port).
focus_arcade_network_dropin() {
  local dropin=/etc/systemd/system/focus-arcade.service.d
  if grep -Eq '^\[(mqtt|event)\]' "$cfg/arcade.toml" 2>/dev/null ||
     grep -Eq '^port *= *"(udp|ddp|wled|socket)' "$cfg/arcade.toml" 2>/dev/null; then
    mkdir -p "$dropin"
    printf '%s\n' '# Written by kiosk/install.sh: the configuration uses the network (MQTT event link or' \
                  '# a Wi-Fi LED output).  Delete this file and run systemctl daemon-reload to turn it off.' \
                  '[Service]' 'RestrictAddressFamilies=AF_INET AF_INET6' 'IPAddressDeny=' > "$dropin/network.conf"
    echo "Network sockets allowed for the arcade ($dropin/network.conf)."
  else
    rm -f "$dropin/network.conf"
  fi
}

focus_arcade_install_unit() {
  sed -e "s#@VENV@#$venv#g" -e "s#@PREFIX@#$prefix#g" \
      "$repo/kiosk/systemd/focus-arcade.service" > /etc/systemd/system/focus-arcade.service
  install -d "$prefix/docs"
  cp "$repo/docs/kiosk-service.md" "$prefix/docs/" 2>/dev/null || true
  focus_arcade_network_dropin
  systemctl daemon-reload
  systemctl disable getty@tty1.service >/dev/null 2>&1 || true
  systemctl enable --now focus-arcade.service
}
# --- end of the service functions ------------------------------------------------------

focus_arcade_service_user "${1:-${SUDO_USER:-pi}}"

apt-get update
apt-get install -y python3-venv python3-lgpio
# --system-site-packages: use Raspberry Pi OS's python3-lgpio (the Pi 5 needs lgpio).
python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --upgrade pip
"$venv/bin/pip" install "$repo"

if [ ! -f "$cfg/arcade.toml" ]; then
  sed -e 's/^fullscreen = false/fullscreen = true/' \
      -e 's/^stations = .*/stations = ["gpio", "gpio", "gpio", "gpio"]/' \
      -e 's/^pin_factory = ""/pin_factory = "lgpio"/' \
      -e 's/^port = "virtual".*/port = "auto"/' \
      "$repo/kiosk/default.toml" > "$cfg/arcade.toml"
  chown "$service_user:$service_user" "$cfg/arcade.toml"
  chmod 0640 "$cfg/arcade.toml"
  echo "Wrote $cfg/arcade.toml: set [led] usb_id to your LED controller's VID:PID (lsusb)."
fi

focus_arcade_install_unit
echo "Focus Arcade is running on tty1 as user $service_user.  Logs: journalctl -u focus-arcade -f"
