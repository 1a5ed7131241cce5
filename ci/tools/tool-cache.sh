# Sourced by the gate's scripts: a pinned tool is installed once per machine, in a directory
# named after its versions beside cargo's and Maven's caches, not in target/, where every clean
# clone installed it again (npm's and pip's installs were about 16 s of a cold gate, issue 28).
#
# install_once DIR INSTALL...: unless DIR holds a finished install, empties DIR and runs
# INSTALL... to fill it, then marks it finished. A lock beside DIR keeps two gates on one
# machine from installing into it at once; an interrupted install is not marked, so the next
# run starts it again.
tool_cache=${RACELAB_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/racelab}
install_once() {
  local dir=$1
  shift
  mkdir -p "$(dirname "$dir")"
  (
    flock 9
    if [ ! -f "$dir/.installed" ]; then
      rm -rf "$dir" && mkdir -p "$dir"
      "$@"
      touch "$dir/.installed"
    fi
  ) 9>"$dir.lock"
}

# apt_install PACKAGE...: Debian's packages, with sudo when not root. The gate's provisioning
# jobs run side by side, so each waits for dpkg's lock instead of failing on it; a machine whose
# package lists are stale gets them fetched once before the second try. The packages' manual
# pages and documentation are not unpacked: man-db's trigger then has nothing to index (it
# spent 6 CPU-seconds of a cold gate, 2026-12-06).
apt_install() {
  local sudo
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  local apt=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300
    -o 'DPkg::Options::=--path-exclude=/usr/share/man/*'
    -o 'DPkg::Options::=--path-exclude=/usr/share/doc/*' -y -qq)
  "${apt[@]}" install "$@" >/dev/null 2>&1 \
    || { "${apt[@]}" update >/dev/null && "${apt[@]}" install "$@" >/dev/null; }
}
