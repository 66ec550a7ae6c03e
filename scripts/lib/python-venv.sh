# A virtualenv under .build/ with exactly the given PyPI packages, for the Python test drivers
# (source this file).
#
# python_venv NAME VENV PACKAGE==VERSION... installs python3 and python3-venv with apt-get when
# missing (as root, or with sudo -n), then makes VENV (a folder under .build/) holding exactly
# those packages, binary wheels only, each pinned; it makes it again when the list changes (the
# list is kept in VENV/.installed). NAME prefixes its messages. Afterwards VENV/bin/python runs them.

python_venv() {
    local name=$1 venv=$2
    shift 2
    if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
        echo "$name: installing python3-venv (Debian)" >&2
        run_as_root apt-get update -qq
        run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
    fi
    local stamp=$venv/.installed
    if [[ ! -x $venv/bin/python || ! -f $stamp || $(cat "$stamp") != "$*" ]]; then
        echo "$name: installing $* into $venv" >&2
        rm -rf "$venv"
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "$@"
        echo "$*" >"$stamp"
    fi
}

# run_as_root COMMAND...: as root, or through sudo -n.
run_as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi; }
