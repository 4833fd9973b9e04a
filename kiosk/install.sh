#!/usr/bin/env bash
# Install Focus Arcade as a boot-time kiosk on Raspberry Pi OS (Bookworm 64-bit, Lite is enough;
# Pi 4 or Pi 5).  Run from a clone of the repository:  sudo kiosk/install.sh [user]
# Running it again (after git pull) installs the new version cleanly: nothing stale is left.
set -euo pipefail
user=${1:-${SUDO_USER:-pi}}
home=$(getent passwd "$user" | cut -d: -f6)
repo=$(cd "$(dirname "$0")/.." && pwd)
venv=$home/.local/share/focus-arcade/venv
cfg=$home/.config/focus-arcade
done_steps=()
left_steps=()

say() { printf '\n== %s\n' "$*"; }

# --- System libraries ---------------------------------------------------------------
# pygame-ce's wheel brings SDL2, but SDL opens the console display (KMSDRM) through the
# system's libdrm, libgbm, EGL and GLES, and its sound through ALSA: without them the TV
# stays black.  GPIO: lgpio (the Pi 5 needs it; Raspberry Pi OS packages it).
focus_arcade_system_packages() {
  say "System libraries (display, sound, GPIO)"
  local packages=(
    python3-venv python3-pip            # the arcade's own virtual environment
    libdrm2 libgbm1 libegl1 libgles2    # SDL KMSDRM video on the console (no desktop)
    libasound2 alsa-utils               # SDL ALSA sound; aplay/amixer to test it
    python3-lgpio                       # GPIO buzzers through gpiozero's lgpio pins
    libfreetype6                        # fonts (pygame-ce bundles one; harmless if present)
  )
  apt-get update
  apt-get install -y --no-install-recommends "${packages[@]}"
  done_steps+=("installed ${packages[*]}")
}

# --- The package, from a wheel built outside the repository ------------------------------
# Built in a temporary folder from a clean copy (never the repository's build/ folder,
# which would keep deleted modules); --force-reinstall replaces every installed file.
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
  chown -R "$user" "$tmp"
  # --system-site-packages: use Raspberry Pi OS's python3-lgpio (the Pi 5 needs lgpio).
  sudo -u "$user" python3 -m venv --system-site-packages "$venv"
  sudo -u "$user" "$venv/bin/pip" install --quiet --upgrade pip wheel
  sudo -u "$user" "$venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$tmp/wheel" "$tmp/src"
  local wheel
  wheel=$(ls "$tmp"/wheel/focus_arcade-*.whl)
  sudo -u "$user" "$venv/bin/pip" install --quiet "$wheel"                             # its dependencies
  sudo -u "$user" "$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"  # every file anew
  done_steps+=("installed $(basename "$wheel") into $venv")
  rm -rf "$tmp"
}

# --- The first configuration ----------------------------------------------------------
focus_arcade_first_config() {
  say "Configuration"
  sudo -u "$user" mkdir -p "$cfg"
  if [ ! -f "$cfg/arcade.toml" ]; then
    sed -e 's/^fullscreen = false/fullscreen = true/' \
        -e 's/^stations = .*/stations = ["gpio", "gpio", "gpio", "gpio"]/' \
        -e 's/^pin_factory = ""/pin_factory = "lgpio"/' \
        -e 's/^port = "virtual"/port = "auto"     /' \
        "$repo/kiosk/default.toml" | sudo -u "$user" tee "$cfg/arcade.toml" >/dev/null
    done_steps+=("wrote $cfg/arcade.toml (fullscreen, 4 GPIO buzzers, LED controller found by itself)")
  else
    done_steps+=("kept your $cfg/arcade.toml")
  fi
  if ! sudo -u "$user" "$venv/bin/focus-arcade" check-config "$cfg/arcade.toml"; then
    left_steps+=("fix the configuration problems above in $cfg/arcade.toml")
  fi
}

# --- Device groups --------------------------------------------------------------------
focus_arcade_groups() {
  local group added=()
  for group in video render input gpio audio dialout; do
    if getent group "$group" >/dev/null; then
      usermod -aG "$group" "$user"
      added+=("$group")
    fi
  done
  done_steps+=("added $user to ${added[*]}")
}

# --- The service ------------------------------------------------------------------------
focus_arcade_service() {
  say "Service"
  sed -e "s#@USER@#$user#g" -e "s#@HOME@#$home#g" -e "s#@VENV@#$venv#g" \
      "$repo/kiosk/systemd/focus-arcade.service" > /etc/systemd/system/focus-arcade.service
  systemctl daemon-reload
  systemctl enable focus-arcade.service
  systemctl restart focus-arcade.service
  done_steps+=("installed and started the focus-arcade service on tty1")
}

# --- What was done, what is left ------------------------------------------------------
focus_arcade_report() {
  say "Check of this machine (focus-arcade doctor)"
  sudo -u "$user" env LG_WD=/run/focus-arcade SDL_VIDEODRIVER=kmsdrm "$venv/bin/focus-arcade" doctor \
      --config "$cfg/arcade.toml" --no-probe || left_steps+=("apply the fixes the doctor printed above")
  left_steps+=(
    "buzzers: wire each between its GPIO pin and ground (BCM 17, 27, 22, 23 for P1-P4; [gpio] buzzers)"
    "LED matrix: plug the controller into USB (stock WLED: nothing to set; FastLED Adalight sketch: see README)"
    "  or for WLED on Wi-Fi set [led] transport = \"ddp\" and host = \"its IP\" in $cfg/arcade.toml"
    "then: sudo -u $user $venv/bin/focus-arcade doctor   (asks the LED controller too)"
  )
  say "Done"
  printf '  - %s\n' "${done_steps[@]}"
  say "Left to do"
  printf '  - %s\n' "${left_steps[@]}"
  echo
  echo "Logs: journalctl -u focus-arcade -f     Version: $("$venv/bin/focus-arcade" --version)"
}

focus_arcade_system_packages
focus_arcade_install_package
focus_arcade_first_config
focus_arcade_groups
focus_arcade_service
focus_arcade_report
