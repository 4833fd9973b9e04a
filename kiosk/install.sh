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
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# --- The service user, its folders and its unit (issue 11: the hardened unit) -------
# Kept in these functions so the rest of the script (system libraries, the package
# install, the first configuration) can change without touching them.
service_user=focus-arcade
prefix=/opt/focus-arcade
venv=$prefix/venv
cfg=/etc/focus-arcade
state=/var/lib/focus-arcade
runtime=/run/focus-arcade                        # the unit's RuntimeDirectory (LG_WD)
constraints=$repo/constraints.txt                # the dependency versions the arcade was tested with
report_file=/var/log/focus-arcade-install.txt    # this run's report, kept to read again
unit_file=$repo/kiosk/systemd/focus-arcade.service
# The doctor as the operator runs it later (docs/kiosk-service.md): the service's user, store and LG_WD.
# The Python package index over a venue's Wi-Fi or a proxy drops a connection now and then:
# pip, and the pip it starts for a build's dependencies, wait longer and try more often than
# their 5 quick tries (a rehearsal's install stopped when all 5 were reset within seconds).
export PIP_RETRIES=${PIP_RETRIES:-10} PIP_TIMEOUT=${PIP_TIMEOUT:-60}
doctor_cmd="sudo runuser -u $service_user -- env XDG_DATA_HOME=/var/lib LG_WD=$runtime $venv/bin/focus-arcade doctor --config $cfg/arcade.toml"

# The unit's SupplementaryGroups= (systemd refuses to start it, status 216/GROUP, when one
# of them does not exist on this system).
unit_groups() {
  sed -n 's/^SupplementaryGroups=//p' "$unit_file" | tr ' ' '\n' | grep -v '^$'
}

# Raspberry Pi OS has a "gpio" group owning /dev/gpiochip* (its own udev rules); plain Debian
# has neither.  A missing device group is made here (a system group), and for "gpio" a udev
# rule gives it the GPIO chips, as on Raspberry Pi OS; a system that has the group keeps its
# own rules untouched.
udev_rules=/etc/udev/rules.d
focus_arcade_device_groups() {
  local group gpio_rule=$udev_rules/60-focus-arcade-gpio.rules
  for group in $(unit_groups); do
    getent group "$group" >/dev/null && continue
    groupadd --system "$group"
    echo "Made the missing group $group (the service runs in it)."
    if [ "$group" = gpio ]; then
      mkdir -p "$udev_rules"
      printf '%s\n' '# Written by kiosk/install.sh: this system had no gpio group (Raspberry Pi OS has one).' \
                    '# The GPIO chips belong to it, as on Raspberry Pi OS, so the arcade may read its buzzers.' \
                    'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' > "$gpio_rule"
      # The chips there now get the group at once; new ones at their appearance.
      udevadm control --reload >/dev/null 2>&1 || true
      udevadm trigger --subsystem-match=gpio --action=change >/dev/null 2>&1 || true
      done_steps+=("made the gpio group and $gpio_rule (the GPIO chips are the gpio group's, as on Raspberry Pi OS)")
    else
      done_steps+=("made the missing group $group")
    fi
  done
}

focus_arcade_service_user() {
  local admin=$1
  local group
  if ! id -u "$service_user" >/dev/null 2>&1; then
    useradd --system --home-dir "$state" --no-create-home --shell /usr/sbin/nologin \
            --user-group --comment "Focus Arcade kiosk" "$service_user"
  fi
  focus_arcade_device_groups
  # The devices it opens: GPIO chip, display (DRM), input, sound, serial LED controller, tty1.
  for group in $(unit_groups); do
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
  # Enabled for the next boot; started last (focus_arcade_start), after the report.
  systemctl enable focus-arcade.service
}
# --- end of the service functions ------------------------------------------------------


# --- System libraries, the package, the first configuration, the report ------------
focus_arcade_system_packages() {
  say "System libraries (display, sound, GPIO)"
  local packages=(
    python3-venv python3-pip            # the arcade's own virtual environment
    libdrm2 libgbm1 libegl1 libgles2    # SDL KMSDRM video on the console (no desktop)
    libegl-mesa0 libgl1-mesa-dri        # Mesa's EGL and its DRI drivers (vc4/v3d on a Pi): only
                                        # recommended by libegl1, so without them "EGL not initialized"
    libasound2 alsa-utils               # SDL ALSA sound; aplay/amixer to test it
    polkitd                             # lets the service menu shut down / reboot (logind asks it)
    libfreetype6                        # fonts (pygame-ce bundles one; harmless if present)
  )
  apt-get update
  # GPIO buzzers through gpiozero's lgpio pins (the Pi 5 needs lgpio).  python3-lgpio is in
  # Raspberry Pi's own archive only: elsewhere lgpio comes from the Python package index
  # into the arcade's venv (focus_arcade_install_package).
  if apt_has python3-lgpio; then
    packages+=(python3-lgpio)
    lgpio_from=apt
  else
    lgpio_from=pypi
    echo "python3-lgpio is not in this system's package archive: lgpio comes from the Python package index."
  fi
  apt-get install -y --no-install-recommends "${packages[@]}"
  done_steps+=("installed ${packages[*]}")
}

# True when the package archive has a candidate version of package $1 (after apt-get update).
apt_has() {
  apt-cache policy "$1" 2>/dev/null | grep -Eq '^[[:space:]]*Candidate: [^(]'
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
  # A running arcade (an update) is stopped while its files are replaced; it starts again last.
  systemctl stop focus-arcade.service >/dev/null 2>&1 || true
  # --system-site-packages: use Raspberry Pi OS's python3-lgpio (the Pi 5 needs lgpio).
  python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip wheel
  "$venv/bin/pip" wheel --quiet --no-deps --wheel-dir "$tmp/wheel" "$tmp/src"
  local wheel
  wheel=$(ls "$tmp"/wheel/focus_arcade-*.whl)
  # The versions the arcade was tested with (constraints.txt), within pyproject.toml's bounds.
  "$venv/bin/pip" install --quiet --constraint "$constraints" "$wheel"   # its dependencies
  "$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheel"  # every file anew
  done_steps+=("installed $(basename "$wheel") into $venv (dependencies as in constraints.txt)")
  rm -rf "$tmp"
  if [ "${lgpio_from:-apt}" = pypi ]; then
    focus_arcade_pip_lgpio
  fi
  focus_arcade_compile
}

# lgpio from the Python package index into the venv (no python3-lgpio in the archive): a
# wheel where the index has one for this machine, else built from its source with swig and a
# compiler.  PYPI=1 makes lgpio's build compile its C library (liblgpio) into the module:
# plain Debian ships no liblgpio to link against ("cannot find -llgpio" without it).
focus_arcade_pip_lgpio() {
  if ! "$venv/bin/pip" install --quiet --constraint "$constraints" lgpio; then
    apt-get install -y --no-install-recommends swig python3-dev gcc
    PYPI=1 "$venv/bin/pip" install --quiet --no-cache-dir --constraint "$constraints" lgpio
  fi
  done_steps+=("installed lgpio $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("lgpio"))') from the Python package index into $venv")
}

# Compiled bytecode for every module in the venv: the service may not write there
# (ProtectSystem=strict), and compiling at each start costs seconds on a Pi 3.
focus_arcade_compile() {
  local site
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  "$venv/bin/python" -m compileall -q -j 0 "$site" >/dev/null
  done_steps+=("compiled the arcade's bytecode in $site")
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
    focus_arcade_accept_config      # the installer's file is the cabinet's last good copy from the start
    done_steps+=("wrote $cfg/arcade.toml (fullscreen, 4 GPIO buzzers, LED controller found by itself)")
  else
    done_steps+=("kept your $cfg/arcade.toml")
  fi
  focus_arcade_service_pin
  if ! as_service "$venv/bin/focus-arcade" check-config --config "$cfg/arcade.toml"; then
    left_steps+=("fix the configuration problems above in $cfg/arcade.toml")
  fi
}

# The configuration file as it is becomes the last good copy the service keeps (issue 23): a file
# that changes kiosk mode, the GPIO pins, the PIN or the store path from the copy's is otherwise
# held at the copy's values until an operator accepts it; what the installer writes is accepted.
focus_arcade_accept_config() {
  as_service "$venv/bin/python" -c 'import sys; from pathlib import Path; from kiosk.config import accept_as_last_good; accept_as_last_good(Path(sys.argv[1]))' "$cfg/arcade.toml" \
    || left_steps+=("make $cfg/arcade.toml the last good copy: sudo runuser -u $service_user -- env STATE_DIRECTORY=$state $venv/bin/focus-arcade check-config --accept $cfg/arcade.toml")
}

# A service PIN of this cabinet's own (issue 20): the README's 2580 opens every cabinet's
# service menu.  Drawn at random when the configuration has a default PIN (a new file, or an
# older install's), written to [service] pin and shown once at the end of the report; a
# PIN the operator chose is kept.
new_pin=""
focus_arcade_service_pin() {
  local out
  if ! out=$(as_service "$venv/bin/python" - "$cfg/arcade.toml" <<'PY'
import re, secrets, sys
from pathlib import Path
from kiosk.config import load_or_default
from kiosk.service.doctor import default_pins

path = Path(sys.argv[1])
if load_or_default(path)["service"]["pin"] not in default_pins():
    sys.exit(0)  # the operator's own PIN (or "" on purpose: doctor warns)
pin = next(p for p in iter(lambda: f"{secrets.randbelow(10000):04d}", None) if p not in default_pins())
text = path.read_text(encoding="utf-8")
header = re.search(r"^\[service\][^\n]*\n", text, re.M)
if header is None:
    text = text.rstrip("\n") + f'\n\n[service]\npin = "{pin}"\n'
else:
    following = re.search(r"^\[", text[header.end():], re.M)
    end = header.end() + (following.start() if following else len(text) - header.end())
    body = text[header.end():end]
    line = re.compile(r"""^(\s*pin\s*=\s*)("[^"\n]*"|'[^'\n]*')""", re.M)
    if line.search(body):
        body = line.sub(lambda m: f'{m.group(1)}"{pin}"', body, count=1)
    else:
        body = f'pin = "{pin}"\n' + body
    text = text[:header.end()] + body + text[end:]
tmp = path.with_name(path.name + ".new")
tmp.write_text(text, encoding="utf-8")
if load_or_default(tmp)["service"]["pin"] != pin:
    tmp.unlink()
    sys.exit("the new PIN did not read back")
tmp.replace(path)
print(pin)
PY
  ); then
    left_steps+=("change the service PIN: [service] pin in $cfg/arcade.toml (the default one opens every cabinet)")
    return 0
  fi
  if [ -n "$out" ]; then
    new_pin=$out
    chown "$service_user:$service_user" "$cfg/arcade.toml"
    chmod 0640 "$cfg/arcade.toml"                 # the PIN is in it: not for every user
    focus_arcade_accept_config    # the new PIN is the copy's too (0640 like the file): else the copy's old one stays in use
    done_steps+=("drew a service PIN of this cabinet's own ([service] pin in $cfg/arcade.toml; shown below, once)")
  fi
}

# A command as the service user, with the unit's own environment (its Environment= lines,
# so the doctor checks what the service will use) and its state folder.
as_service() {
  local service_env=() line
  while IFS= read -r line; do
    line=${line#Environment=}
    case "$line" in LG_WD=*) line="LG_WD=$runtime";; esac
    service_env+=("$line")
  done < <(grep '^Environment=' "$unit_file")
  runuser -u "$service_user" -- env "${service_env[@]}" STATE_DIRECTORY="$state" "$@"
}

# The doctor, as the service will run, before the service starts: the LED controller's port
# is free, so the doctor asks it too.  Its output goes to the report file as well.
focus_arcade_doctor() {
  say "Check of this machine (focus-arcade doctor)" | tee -a "$report_file"
  # The unit's runtime folder (LG_WD), as systemd makes it when the service starts.
  install -d -o "$service_user" -g "$service_user" -m 0750 "$runtime"
  local rc=0
  if as_service "$venv/bin/focus-arcade" doctor --config "$cfg/arcade.toml" 2>&1 | tee -a "$report_file"; then
    rc=0
  else
    rc=${PIPESTATUS[0]}
  fi
  if [ "$rc" = 1 ]; then
    left_steps+=("apply the fixes the doctor printed above (its FIX lines), then check again: $doctor_cmd --no-probe")
  elif [ "$rc" != 0 ]; then
    left_steps+=("the doctor did not run to its end (status $rc): see its message above")
  fi
}

focus_arcade_report() {
  left_steps+=(
    "buzzers: wire each between its GPIO pin and ground (BCM 17, 27, 22, 23 for P1-P4; [gpio] buzzers)"
    "LED matrix: plug the controller into USB (stock WLED: only its LED count and 2D matrix to set; FastLED Adalight sketch: see README)"
    "  or for WLED on Wi-Fi set [led] transport = \"ddp\" and host = \"its IP\" in $cfg/arcade.toml, then run sudo kiosk/install.sh again (it allows the network to the service)"
    "a controller plugged in later: sudo systemctl stop focus-arcade; $doctor_cmd (asks the LED controller too); sudo systemctl start focus-arcade"
  )
  {
    say "Done"
    printf '  - %s\n' "${done_steps[@]}"
    say "Left to do"
    printf '  - %s\n' "${left_steps[@]}"
    echo
    echo "Logs: journalctl -u focus-arcade -f     Version: $("$venv/bin/focus-arcade" --version)"
    echo "This report is kept in $report_file (sudo cat $report_file)."
  } | tee -a "$report_file"
  if [ -n "$new_pin" ]; then
    # On the screen only, once: the report file says where it is, not what it is.
    printf '\n== The service PIN of this cabinet: %s\n   (write it down; it is [service] pin in %s)\n' "$new_pin" "$cfg/arcade.toml"
    echo "The service PIN was drawn and shown once; it is [service] pin in $cfg/arcade.toml." >> "$report_file"
  fi
}

# A step that fails ends the script (set -e): it says so, what was done, and how to go on,
# on the screen and in the report file, instead of ending on a tool's last error line.
focus_arcade_stopped() {
  local rc=$?
  [ "$rc" = 0 ] && return 0
  {
    say "Stopped before the end (status $rc): see the error above"
    [ ${#done_steps[@]} -gt 0 ] && printf '  - done: %s\n' "${done_steps[@]}"
    echo "  The arcade was not started by this run. Fix the cause (for a network error: wait until"
    echo "  the Pi is online again), then run sudo kiosk/install.sh again: it picks up from the start."
  } | tee -a "$report_file" >&2 || true
  return "$rc"
}

# True when this script runs from tty1, the console the arcade takes over: its own terminal,
# or that of a process it runs under.  Under sudo it is never its own: Debian's sudo (and so
# Raspberry Pi OS's) has "Defaults use_pty", which gives the command a pty of its own
# (tty says /dev/pts/N) while sudo itself keeps tty1 (found by tools/rehearse-pi).
on_tty1() {
  [ "$(tty 2>/dev/null)" = /dev/tty1 ] && return 0
  local pid=$PPID name
  while [ -n "$pid" ] && [ "$pid" -gt 1 ] 2>/dev/null; do
    name=$(ps -o tty= -p "$pid" 2>/dev/null | tr -d ' ')
    [ "$name" = tty1 ] && return 0
    pid=$(ps -o ppid= -p "$pid" 2>/dev/null | tr -d ' ')
  done
  return 1
}

# The service starts last, once the report is out.  On tty1 the unit takes the console
# (Conflicts=getty@tty1, TTYVHangup): that would hang this script up before its report
# was read, so it starts a few seconds after the script has ended, not from within it.
focus_arcade_start() {
  if on_tty1; then
    echo
    echo "The arcade takes over this screen (tty1). The report above is kept in $report_file."
    if [ -t 0 ]; then
      read -r -t 600 -p "Press Enter to start the arcade (it starts by itself in 10 minutes) " _ || true
    fi
    systemd-run --quiet --on-active=3 --timer-property=AccuracySec=100ms \
                "$(command -v systemctl)" start focus-arcade.service
    echo "The arcade starts in 3 s."
  else
    systemctl restart --no-block focus-arcade.service
    echo "Started the arcade on tty1: systemctl status focus-arcade"
  fi
}

# --- The steps, in order ---------------------------------------------------------------
# sourced by the tests (FOCUS_ARCADE_INSTALL_FUNCTIONS_ONLY=1): the functions, nothing run
if [ "${FOCUS_ARCADE_INSTALL_FUNCTIONS_ONLY:-}" = 1 ]; then
  return 0 2>/dev/null || exit 0
fi
install -d -m 0755 "$(dirname "$report_file")"
: > "$report_file"
trap focus_arcade_stopped EXIT
chmod 0640 "$report_file"
chgrp adm "$report_file" 2>/dev/null || true
focus_arcade_system_packages
focus_arcade_service_user "${1:-${SUDO_USER:-pi}}"
done_steps+=("system user $service_user (no sudo) in the device groups; $cfg and $state")
focus_arcade_install_package
focus_arcade_first_config
focus_arcade_install_unit
done_steps+=("installed the focus-arcade service (tty1, as $service_user), enabled at boot")
focus_arcade_doctor
focus_arcade_report
focus_arcade_start
