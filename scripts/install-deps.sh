#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages that building and testing bench need.
#
#   scripts/install-deps.sh              install whatever is missing
#   scripts/install-deps.sh --if-missing same, but silent when nothing is
#   scripts/install-deps.sh --check      only report; exit 1 if anything is missing
set -euo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

PACKAGES=(
	make gcc pkg-config	# the userspace build
	clang llvm		# BPF programs (clang -target bpf)
	bpftool			# vmlinux.h and skeletons
	libbpf-dev libelf-dev zlib1g-dev	# libbpf and what it links against
	libjansson-dev		# JSON results
	libsqlite3-dev sqlite3	# bench history's database; the tests read it with sqlite3
	perl jq shellcheck	# prove (TAP), JSON checks and script lint in tests
	valgrind		# memcheck tests: without it they would only skip
	gnuplot-nox		# bench plot draws with it (svg, pngcairo, dumb)
	libxml2-utils		# xmllint: the plot tests parse the SVGs
	python3-jsonschema	# the tests validate KCIDB exports (Draft-07)
	ruby ruby-tty-command ruby-activesupport ruby-git	# lkp-tests' bin/run-stats and sbin/dump-stat on contrib's bpf-bench
	git			# the version (git describe) and the build test
	help2man man-db groff-base	# the manual pages from --help; man.t reads them
	qemu-system-x86 busybox-static kmod	# scripts/vmtest.sh: a VM, its initramfs, depmod
)

mode=install
case "${1:-}" in
--check) mode=check ;;
--if-missing) mode=quiet ;;
"") ;;
*)
	echo "install-deps.sh: unknown option '$1' (accepted: --check, --if-missing, -h, --help)" >&2
	exit 2
	;;
esac

if ! command -v dpkg-query >/dev/null; then
	echo "install-deps.sh: not a Debian-based system; install the equivalents of: ${PACKAGES[*]}" >&2
	exit 1
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
	[ "$mode" = quiet ] || echo "install-deps.sh: all build and test dependencies are installed"
	exit 0
fi

if [ "$mode" = check ]; then
	echo "install-deps.sh: missing packages: ${missing[*]}"
	exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null; then
		echo "install-deps.sh: missing packages (${missing[*]}) and not root: run as root or install sudo" >&2
		exit 1
	fi
	SUDO=(sudo)
fi

echo "install-deps.sh: installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps.sh: installed ${missing[*]}"
