#!/usr/bin/env bash
# Install Focus Arcade as a boot-time kiosk on Raspberry Pi OS (Bookworm, Pi 4 or Pi 5).
# Run from a clone of the repository:  sudo kiosk/install.sh [admin-user]
#
# The arcade runs as its own system user "focus-arcade" (no sudo, no login), from a
# virtual environment in /opt/focus-arcade/venv, with its configuration in
# /etc/focus-arcade/arcade.toml and its results in /var/lib/focus-arcade.  An older
# install's configuration and results in the admin user's home are copied over once.
set -euo pipefail
done_steps=()
left_steps=()
say() { printf '\n== %s\n' "$*"; }
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
  # Where the service's store is: XDG_DATA_HOME=/var/lib (the unit) + focus-arcade/arcade.sqlite3.
  local store=$state/arcade.sqlite3
  if [ -n "$home" ] && [ -f "$old" ] && [ ! -f "$store" ]; then
    # sqlite3's backup copies a consistent file even from a write-ahead log.
    python3 -c 'import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d)' \
            "$old" "$store"
    chown "$service_user:$service_user" "$store"
    chmod 0640 "$store"
    echo "Copied the results from $old"
  fi
}

# Network sockets only when the configuration uses the network: the MQTT event link
# ([event] host set) or a Wi-Fi LED output (DDP to WLED), as the arcade's own
# configuration loader reads it (kiosk.config.Config.uses_network).
focus_arcade_network_dropin() {
  local dropin=/etc/systemd/system/focus-arcade.service.d
  if "$venv/bin/python" -c 'import sys; from kiosk.config import load_or_default
sys.exit(0 if load_or_default(sys.argv[1]).uses_network() else 1)' "$cfg/arcade.toml" 2>/dev/null; then
    mkdir -p "$dropin"
    printf '%s\n' '# Written by kiosk/install.sh: the configuration uses the network (MQTT event link or' \
                  '# a Wi-Fi LED output).  Delete this file and run systemctl daemon-reload to turn it off.' \
                  '[Service]' 'RestrictAddressFamilies=AF_INET AF_INET6' 'IPAddressDeny=' > "$dropin/network.conf"
    echo "Network sockets allowed for the arcade ($dropin/network.conf)."
  else
    rm -f "$dropin/network.conf"
  fi
}

# Shutting down and rebooting from the service menu: systemd-logind asks polkit, and this
# rule lets the service user (and only it) power off and reboot, nothing else.
polkit_rules=/etc/polkit-1/rules.d
focus_arcade_polkit_rule() {
  [ -d "$polkit_rules" ] || mkdir -p "$polkit_rules"     # keep the folder's own owner and mode
  install -o root -g root -m 0644 "$repo/kiosk/systemd/focus-arcade.rules" "$polkit_rules/50-focus-arcade.rules"
  # polkitd reads new rules by itself; a restart makes sure (it may not be running yet).
  systemctl try-restart polkit.service >/dev/null 2>&1 || true
  echo "The arcade may shut down and reboot the Pi ($polkit_rules/50-focus-arcade.rules)."
}

focus_arcade_install_unit() {
  sed -e "s#@VENV@#$venv#g" -e "s#@PREFIX@#$prefix#g" \
      "$repo/kiosk/systemd/focus-arcade.service" > /etc/systemd/system/focus-arcade.service
  install -d "$prefix/docs"
  cp "$repo/docs/kiosk-service.md" "$prefix/docs/" 2>/dev/null || true
  focus_arcade_network_dropin
  focus_arcade_polkit_rule
  systemctl daemon-reload
  systemctl disable getty@tty1.service >/dev/null 2>&1 || true
  systemctl enable --now focus-arcade.service
}
# --- end of the service functions ------------------------------------------------------


# --- System libraries, the package, the first configuration, the report ------------
focus_arcade_system_packages() {
  say "System libraries (display, sound, GPIO)"
  local packages=(
    python3-venv python3-pip            # the arcade's own virtual environment
    libdrm2 libgbm1 libegl1 libgles2    # SDL KMSDRM video on the console (no desktop)
    libasound2 alsa-utils               # SDL ALSA sound; aplay/amixer to test it
    python3-lgpio                       # GPIO buzzers through gpiozero's lgpio pins
    polkitd                             # lets the service menu shut down / reboot (logind asks it)
    libfreetype6                        # fonts (pygame-ce bundles one; harmless if present)
  )
  apt-get update
  apt-get install -y --no-install-recommends "${packages[@]}"
  done_steps+=("installed ${packages[*]}")
}

focus_arcade_install_package() {
  say "The arcade (a wheel built from $repo)"
  local tmp
  tmp=$(mktemp -d)
  mkdir -p "$tmp/src" "$tmp/wheel"
  if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    # The files git knows (tracked, and new ones not ignored) as they are now: no build/, no .venv/.
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
       while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
       tar --null -T - -cf -) | tar -x -C "$tmp/src"
  else
    (cd "$repo" && tar --exclude=./build --exclude=./.venv --exclude='*.egg-info' -cf - .) | tar -x -C "$tmp/src"
  fi
    # --system-site-packages: use Raspberry Pi OS's python3-lgpio (the Pi 5 needs lgpio).
  python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip wheel
  "$venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$tmp/wheel" "$tmp/src"
  local wheel
  wheel=$(ls "$tmp"/wheel/focus_arcade-*.whl)
  "$venv/bin/pip" install --quiet "$wheel"                             # its dependencies
  "$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"  # every file anew
  done_steps+=("installed $(basename "$wheel") into $venv")
  rm -rf "$tmp"
}

focus_arcade_first_config() {
  say "Configuration"
  if [ ! -f "$cfg/arcade.toml" ]; then
    sed -e 's/^fullscreen = false/fullscreen = true/' \
        -e 's/^kiosk = false/kiosk = true/' \
        -e 's/^stations = .*/stations = ["gpio", "gpio", "gpio", "gpio"]/' \
        -e 's/^combo = \["P1.ok", "P2.ok"\]/combo = ["P1.buzzer", "P2.buzzer"]/' \
        -e 's/^pin_factory = ""/pin_factory = "lgpio"/' \
        -e 's/^port = "virtual"/port = "auto"     /' \
        "$repo/kiosk/default.toml" > "$cfg/arcade.toml"
    chown "$service_user:$service_user" "$cfg/arcade.toml"
    chmod 0640 "$cfg/arcade.toml"
    done_steps+=("wrote $cfg/arcade.toml (fullscreen, 4 GPIO buzzers, LED controller found by itself)")
  else
    done_steps+=("kept your $cfg/arcade.toml")
  fi
  if ! runuser -u "$service_user" -- "$venv/bin/focus-arcade" check-config "$cfg/arcade.toml"; then
    left_steps+=("fix the configuration problems above in $cfg/arcade.toml")
  fi
}

focus_arcade_report() {
  say "Check of this machine (focus-arcade doctor)"
  runuser -u "$service_user" -- env LG_WD=/run/focus-arcade SDL_VIDEODRIVER=kmsdrm XDG_DATA_HOME=/var/lib XDG_CONFIG_HOME=/etc "$venv/bin/focus-arcade" doctor \
      --config "$cfg/arcade.toml" --no-probe || left_steps+=("apply the fixes the doctor printed above")
  left_steps+=(
    "buzzers: wire each between its GPIO pin and ground (BCM 17, 27, 22, 23 for P1-P4; [gpio] buzzers)"
    "LED matrix: plug the controller into USB (stock WLED: only its LED count and 2D matrix to set; FastLED Adalight sketch: see README)"
    "  or for WLED on Wi-Fi set [led] transport = \"ddp\" and host = \"its IP\" in $cfg/arcade.toml, then run sudo kiosk/install.sh again (it allows the network to the service)"
    "then: sudo systemctl stop focus-arcade; sudo runuser -u $service_user -- $venv/bin/focus-arcade doctor --config $cfg/arcade.toml (asks the LED controller too); sudo systemctl start focus-arcade"
  )
  say "Done"
  printf '  - %s\n' "${done_steps[@]}"
  say "Left to do"
  printf '  - %s\n' "${left_steps[@]}"
  echo
  echo "Logs: journalctl -u focus-arcade -f     Version: $("$venv/bin/focus-arcade" --version)"
}

focus_arcade_system_packages
focus_arcade_service_user "${1:-${SUDO_USER:-pi}}"
done_steps+=("system user $service_user (no sudo) in the device groups; $cfg and $state")
focus_arcade_install_package
focus_arcade_first_config
focus_arcade_install_unit
done_steps+=("installed and started the focus-arcade service on tty1 as $service_user")
focus_arcade_report
