#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside a throw-away VM that boots another kernel.
#
#   scripts/vmtest.sh [-k KERNEL] [-M MODULES] [-c CPUS] [-m MEM] [-t TIMEOUT]
#                     [-o OUTDIR] [-e VAR[=VALUE]]... [-v] -- COMMAND...
#
# The guest sees this machine's / read-only (9p), under an overlay whose
# writable layer lives in guest RAM: everything a command writes is thrown
# away with the VM, except under OUTDIR, which is shared writable at the same
# path.  COMMAND runs as root in the project directory, with pure cgroup v2
# (memory delegated from the root cgroup), bpffs and debugfs mounted as a
# distribution mounts them, and tracefs not mounted.  Its stdout and stderr
# both arrive on vmtest.sh's stdout; vmtest.sh's own messages go to stderr.
#
#   -k KERNEL   a Debian kernel package name (default linux-image-amd64, whose
#               dependency names the actual kernel), a .deb file of one, or a
#               bzImage.  Packages are fetched with apt-get download and
#               unpacked with dpkg-deb -x into the cache, never installed.
#   -M MODULES  with a bzImage: its lib/modules/VERSION directory.  Without
#               it, 9p, 9pnet_virtio, virtio_pci and overlay must be built in.
#   -c CPUS     virtual CPUs (default 2)
#   -m MEM      guest memory, as for qemu: 2G, 512M (default 2G)
#   -t TIMEOUT  seconds for boot plus COMMAND, 0 for none (default 3600)
#   -o OUTDIR   directory shared writable with the guest, created if missing
#               (default $OUTPUT/vmtest/out, OUTPUT defaulting to .output in
#               the source tree, to ${XDG_CACHE_HOME:-~/.cache}/bench where
#               make install put vmtest.sh)
#   -e VAR      pass VAR (or VAR=VALUE) into the guest; CI, LANG, LC_ALL,
#               LC_CTYPE and TZ are passed when set
#   -v          print the guest's kernel log on stderr when the VM is gone
#
# Exit status: COMMAND's, or
#   2    bad arguments (nothing was booted)
#   124  TIMEOUT expired: the VM was killed
#   125  no kernel, the VM failed to boot, or it died before COMMAND's status
#        was reported (the kernel log's tail is printed); a guest kernel
#        that locks up (a soft lockup: a CPU stuck in the kernel for about
#        20 s) panics and ends the VM at once, and vmtest.sh says "the guest
#        kernel locked up" with the watchdog's line
#   129, 130, 143  vmtest.sh got SIGHUP, SIGINT or SIGTERM: the VM was killed
# A COMMAND that itself exits 124 or 125 cannot be told apart by status
# alone, but vmtest.sh then prints no timeout or boot message.
#
# Uses KVM when /dev/kvm is usable, otherwise TCG (software emulation, 10
# to 100 times slower: fine for correctness, meaningless for timings), and
# says which.  Kernels are cached in $OUTPUT/vmtest/kernels (VMTEST_CACHE
# overrides); VMTEST_ACCEL=kvm|tcg forces the accelerator, VMTEST_CPU sets
# qemu's -cpu, VMTEST_APPEND adds to the kernel command line.  Nothing is
# mounted on this machine; the temporary directory and qemu are gone when
# vmtest.sh returns, whatever ends it short of SIGKILL (even then qemu
# follows its parent and the timeout still applies).
set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

PROG=vmtest.sh
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)

EX_USAGE=2
EX_TIMEOUT=124
EX_VMFAIL=125

die_usage() {	# one line naming the bad value and what is accepted
	echo "$PROG: $*" >&2
	exit $EX_USAGE
}

die() {		# a failure before the VM ran COMMAND
	echo "$PROG: $*" >&2
	exit $EX_VMFAIL
}

KERNEL=linux-image-amd64
MODULES=""
CPUS=2
MEM=2G
TIMEOUT=3600
OUTDIR=""
VERBOSE=0
PASS_ENV=(CI LANG LC_ALL LC_CTYPE TZ)
SET_ENV=()

while getopts ':k:M:c:m:t:o:e:vh' opt; do
	case $opt in
	k) KERNEL=$OPTARG ;;
	M) MODULES=$OPTARG ;;
	c)
		if ! [[ $OPTARG =~ ^[1-9][0-9]{0,2}$ ]] || [ "$OPTARG" -gt 255 ]; then
			die_usage "bad CPU count '$OPTARG' for -c (accepted: 1..255)"
		fi
		CPUS=$OPTARG
		;;
	m)
		[[ $OPTARG =~ ^[1-9][0-9]*[MG]?$ ]] ||
			die_usage "bad memory size '$OPTARG' for -m (accepted: a number of MiB, or with M or G, e.g. 2G)"
		MEM=$OPTARG
		;;
	t)
		[[ $OPTARG =~ ^(0|[1-9][0-9]{0,6})$ ]] ||
			die_usage "bad timeout '$OPTARG' for -t (accepted: whole seconds, 0 for none)"
		TIMEOUT=$OPTARG
		;;
	o) OUTDIR=$OPTARG ;;
	e)
		[[ $OPTARG =~ ^[A-Za-z_][A-Za-z0-9_]*(=.*)?$ ]] ||
			die_usage "bad variable '$OPTARG' for -e (accepted: NAME or NAME=VALUE)"
		if [[ $OPTARG == *=* ]]; then
			SET_ENV+=("$OPTARG")
		else
			PASS_ENV+=("$OPTARG")
		fi
		;;
	v) VERBOSE=1 ;;
	h)
		sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"
		exit 0
		;;
	:) die_usage "option -$OPTARG needs a value" ;;
	*) die_usage "unknown option '-$OPTARG' (accepted: -k -M -c -m -t -o -e -v -h, then -- COMMAND)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || die_usage "no COMMAND to run (usage: $PROG [options] -- COMMAND...)"

# ---- the accelerator ----
ACCEL=${VMTEST_ACCEL:-}
if [ -z "$ACCEL" ]; then
	ACCEL=tcg
	# /dev/kvm can exist and open where the CPU has no virtualization
	if grep -qwE 'vmx|svm' /proc/cpuinfo && (exec 3<>/dev/kvm) 2>/dev/null; then
		ACCEL=kvm
	fi
fi
case $ACCEL in
kvm) CPU=${VMTEST_CPU:-host}; HOW="KVM" ;;
# five-level page tables make every TCG page walk longer and test nothing here
tcg) CPU=${VMTEST_CPU:-max,la57=off}; HOW="TCG (software emulation, no usable /dev/kvm: timings are not comparable to hardware)" ;;
*) die_usage "bad VMTEST_ACCEL '$ACCEL' (accepted: kvm, tcg)" ;;
esac

# installed (no Makefile beside scripts/), nothing is written into the
# installed tree: the kernel cache and OUTDIR go to the user's cache
if [ -f "$SRCDIR/Makefile" ]; then
	STATE=$SRCDIR/.output
else
	STATE=${XDG_CACHE_HOME:-$HOME/.cache}/bench
fi
BASE=${OUTPUT:-$STATE}/vmtest
CACHE=${VMTEST_CACHE:-$BASE/kernels}
[ -n "$OUTDIR" ] || OUTDIR=$BASE/out

for tool in qemu-system-x86_64 busybox dpkg-deb timeout setpriv; do
	command -v "$tool" >/dev/null ||
		die "$tool not found: run scripts/install-deps.sh (qemu-system-x86, busybox-static)"
done
BUSYBOX=$(command -v busybox)

# ---- what to boot: the kernel image and, unless built in, its modules ----
IMAGE=""
KVER=""
DESC=""
if [ -n "$MODULES" ] && { [[ $KERNEL == *.deb ]] || [ ! -f "$KERNEL" ]; }; then
	die_usage "-M '$MODULES' goes only with a bzImage file for -k (got '$KERNEL')"
fi
if [ -n "$MODULES" ] && [ ! -f "$MODULES/modules.dep" ]; then
	die_usage "bad modules directory '$MODULES' for -M (accepted: a lib/modules/VERSION directory with modules.dep)"
fi
if [[ $KERNEL == */* ]] || [[ $KERNEL == *.deb ]]; then
	[ -f "$KERNEL" ] ||
		die_usage "kernel '$KERNEL' is not a file (accepted: a Debian kernel package name, a .deb, or a bzImage)"
	KERNEL=$(realpath "$KERNEL")
elif ! [[ $KERNEL =~ ^[a-z0-9][a-z0-9+.-]+$ ]]; then
	die_usage "bad kernel '$KERNEL' (accepted: a Debian kernel package name, a .deb, or a bzImage path)"
fi

if ! { mkdir -p "$OUTDIR" 2>/dev/null && [ -d "$OUTDIR" ] && [ -w "$OUTDIR" ]; }; then
	die_usage "bad output directory '$OUTDIR' for -o (accepted: a writable directory, created if missing)"
fi
OUTDIR=$(realpath "$OUTDIR")
[ "$OUTDIR" != / ] || die_usage "bad output directory '/' for -o (the guest would write over everything)"

# ---- clean-up: whatever ends us, no qemu and no temporary files stay ----
TMP=""
VM_PID=""
PARTIAL=""
# shellcheck disable=SC2317 # called by the traps below
cleanup() {
	if [ -n "$VM_PID" ]; then
		kill -TERM "$VM_PID" 2>/dev/null
		wait "$VM_PID" 2>/dev/null
		VM_PID=""
	fi
	[ -z "$PARTIAL" ] || rm -rf "$PARTIAL"
	[ -z "$TMP" ] || rm -rf "$TMP"
}
# shellcheck disable=SC2317 # called by the traps below
on_signal() {	# on_signal <name> <exit status>
	trap '' INT TERM HUP
	echo "$PROG: got SIG$1: killing the VM" >&2
	cleanup
	exit "$2"
}
trap cleanup EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'on_signal HUP 129' HUP

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vmtest.XXXXXX") || die "failed to create a temporary directory"

# unpack_deb <deb> <dir>: unpack a kernel package into dir, with the module
# index that installing it would have made (depmod), atomically: other runs
# may share the cache.  The caller holds the cache lock.
unpack_deb() {
	local deb=$1 dir=$2 moddir

	PARTIAL=$dir.partial.$$
	rm -rf "$PARTIAL"
	dpkg-deb -x "$deb" "$PARTIAL" || die "failed to unpack $deb"
	for moddir in "$PARTIAL"/lib/modules/* "$PARTIAL"/usr/lib/modules/*; do
		[ -d "$moddir" ] || continue
		command -v depmod >/dev/null ||
			die "depmod not found: run scripts/install-deps.sh (kmod)"
		depmod -b "${moddir%/lib/modules/*}" "${moddir##*/}" ||
			die "failed to index the modules of $deb with depmod"
	done
	rm -rf "$dir"
	mv "$PARTIAL" "$dir" || die "failed to move the unpacked kernel into $dir"
	PARTIAL=""
	touch "$dir/.complete"
}

lock_cache() {
	mkdir -p "$CACHE" || die "failed to create the kernel cache $CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
}

# fetch_pkg <name>: sets KDIR to the unpacked candidate of a kernel package,
# following a metapackage (linux-image-amd64) to the image it depends on
fetch_pkg() {
	local name=$1 version dep i

	for i in 1 2 3; do
		# the candidate's version, and the kernel image it depends on if
		# it is a metapackage
		read -r version dep < <(apt-cache show --no-all-versions "$name" 2>/dev/null | awk -F': ' '
			$1 == "Version" { v = $2 }
			$1 == "Depends" { n = split($2, d, /[,|] */)
					  for (j = 1; j <= n; j++) if (d[j] ~ /^linux-image-[0-9]/ && !dep) { split(d[j], w, " "); dep = w[1] } }
			END { print v, dep }')
		[ -n "$version" ] ||
			die_usage "kernel '$name' is no Debian package that apt knows (accepted: a package name such as linux-image-amd64, a .deb, or a bzImage; run apt-get update?)"
		[ -n "$dep" ] || break
		name=$dep
	done
	KDIR=$CACHE/${name}_$version
	DESC="$name $version"
	[ -e "$KDIR/.complete" ] && return 0

	lock_cache
	if [ ! -e "$KDIR/.complete" ]; then
		echo "$PROG: fetching $name $version into $CACHE" >&2
		mkdir "$TMP/deb"
		if ! (cd "$TMP/deb" && apt-get download -q "$name=$version") >"$TMP/apt.log" 2>&1; then
			cat "$TMP/apt.log" >&2
			die "failed to download $name $version with apt-get download"
		fi
		unpack_deb "$TMP"/deb/*.deb "$KDIR"
		rm -rf "$TMP/deb"
	fi
	exec 9>&-
}

# find_kernel <dir>: IMAGE, KVER and MODULES of an unpacked kernel package
find_kernel() {
	local dir=$1

	IMAGE=$(find "$dir/boot" -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | sort | tail -n 1)
	[ -n "$IMAGE" ] || die "no boot/vmlinuz-* in $DESC: not a kernel image package"
	KVER=${IMAGE##*/vmlinuz-}
	MODULES=""
	for d in "$dir/lib/modules/$KVER" "$dir/usr/lib/modules/$KVER"; do
		[ -f "$d/modules.dep" ] && MODULES=$d
	done
}

if [[ $KERNEL == *.deb ]]; then
	DESC=$(basename "$KERNEL")
	KDIR=$CACHE/deb-$(basename "$KERNEL" .deb)
	if [ ! -e "$KDIR/.complete" ] || [ "$KERNEL" -nt "$KDIR/.complete" ]; then
		lock_cache
		unpack_deb "$KERNEL" "$KDIR"
		exec 9>&-
	fi
	find_kernel "$KDIR"
elif [ -f "$KERNEL" ]; then
	IMAGE=$KERNEL
	DESC=$KERNEL
	[ -z "$MODULES" ] || MODULES=$(realpath "$MODULES")
else
	fetch_pkg "$KERNEL"
	find_kernel "$KDIR"
fi

# ---- the initramfs: busybox, the modules the guest needs to reach its root ----
# The 9p client, its virtio transport, the PCI virtio bus and overlayfs, with
# what they depend on, in load order (modules.dep lists dependencies).
WANT_MODULES="virtio_pci 9pnet_virtio 9p overlay"
declare -A MOD_DONE=()
MOD_ORDER=()
add_module() {	# add_module <name>: it and its dependencies, dependencies first
	local name=${1//-/_} line path dep

	[ -z "${MOD_DONE[$name]:-}" ] || return 0
	MOD_DONE[$name]=1
	line=$(grep -E "(^|/)${name//_/[_-]}\.ko(\.[a-z]+)?:" "$MODULES/modules.dep" | head -n 1)
	if [ -z "$line" ]; then
		grep -qE "(^|/)${name//_/[_-]}\.ko\$" "$MODULES/modules.builtin" 2>/dev/null && return 0
		die "kernel $DESC: module $name is neither built in nor in $MODULES"
	fi
	path=${line%%:*}
	for dep in ${line#*:}; do
		dep=${dep##*/}
		add_module "${dep%%.ko*}"
	done
	MOD_ORDER+=("$path")
}

INITRD=$TMP/initramfs
mkdir -p "$INITRD"/{bin,dev,proc,sys,mnt/root,mnt/rw,newroot,modules}
cp "$BUSYBOX" "$INITRD/bin/busybox"
if [ -n "$MODULES" ]; then
	for m in $WANT_MODULES; do
		add_module "$m"
	done
	i=0
	for path in "${MOD_ORDER[@]}"; do
		dst=$(printf '%s/modules/%02d-%s' "$INITRD" $i "${path##*/}")
		dst=${dst%%.ko*}.ko
		case $path in
		*.ko) cp "$MODULES/$path" "$dst" ;;
		*.ko.xz) xz -dc "$MODULES/$path" >"$dst" ;;
		*.ko.zst) zstd -qdc "$MODULES/$path" >"$dst" ;;
		*.ko.gz) gzip -dc "$MODULES/$path" >"$dst" ;;
		*) die "kernel $DESC: cannot load module $path (unknown compression)" ;;
		esac || die "failed to copy module $path"
		i=$((i + 1))
	done
fi

# What the guest needs to know: paths, the environment, the command.
# COMMAND's output is a terminal in the guest only if ours is one.
HOST_TTY=0
[ ! -t 1 ] || HOST_TTY=1
{
	printf 'VMTEST_DIR=%q\n' "$SRCDIR"
	printf 'VMTEST_OUTDIR=%q\n' "$OUTDIR"
	printf 'VMTEST_MODULES=%q\n' "$MODULES"
	if [ "$HOST_TTY" = 1 ]; then
		printf 'VMTEST_TTY=1\nexport TERM=%q\n' "${TERM:-dumb}"
	else
		printf 'VMTEST_TTY=0\n'
	fi
	printf 'VMTEST_CMD=('
	printf '%q ' "$@"
	printf ')\n'
	for v in "${PASS_ENV[@]}"; do
		[ -z "${!v+set}" ] || printf 'export %s=%q\n' "$v" "${!v}"
	done
	for v in "${SET_ENV[@]}"; do
		printf 'export %s=%q\n' "${v%%=*}" "${v#*=}"
	done
} >"$INITRD/vmtest.env"

# Stage 1, PID 1 in the initramfs: reach the root and switch to it.
# Serial ports: ttyS0 the kernel log, ttyS1 COMMAND's output, ttyS2 status.
cat >"$INITRD/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

fail() {
	echo "vmtest: $*" >/dev/ttyS0
	echo "fail $*" >/dev/ttyS2
	poweroff -f
}

for m in /modules/*.ko; do
	[ -e "$m" ] || continue
	insmod "$m" 2>/tmp.err || grep -q 'File exists' /tmp.err ||
		fail "failed to load module ${m#*-}: $(cat /tmp.err)"
done
missing=""
grep -qw 9p /proc/filesystems || missing="$missing 9p (CONFIG_9P_FS, CONFIG_NET_9P_VIRTIO)"
grep -qw overlay /proc/filesystems || missing="$missing overlay (CONFIG_OVERLAY_FS)"
[ -z "$missing" ] || fail "the kernel lacks:$missing; build them in or give the modules with -M"

# the host's files do not change under a run: let the guest cache them
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000,cache=loose vmtest_root /mnt/root ||
	fail "failed to mount the host's / over 9p (virtio-pci and 9pnet_virtio needed: CONFIG_VIRTIO_PCI, CONFIG_NET_9P_VIRTIO)"
mount -t tmpfs -o mode=0755 tmpfs /mnt/rw
mkdir /mnt/rw/upper /mnt/rw/work
mount -t overlay -o lowerdir=/mnt/root,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work overlay /newroot ||
	fail "failed to mount the overlay over the host's /"
mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /newroot/run
mkdir -p /newroot/run/vmtest
cp /vmtest.env /stage2 /bin/busybox /newroot/run/vmtest/
for d in proc sys dev; do
	mount --move /$d /newroot/$d
done
exec switch_root /newroot /bin/bash /run/vmtest/stage2
EOF

# Stage 2, PID 1 in the guest's root: the rest of a distribution's mounts,
# then COMMAND; always ends in a power-off.
cat >"$INITRD/stage2" <<'EOF'
bb=/run/vmtest/busybox
off() {
	sync
	$bb poweroff -f
}
fail() {
	echo "vmtest: $*" >/dev/ttyS0
	echo "fail $*" >/dev/ttyS2
	off
}
trap off EXIT
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
. /run/vmtest/vmtest.env

mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=000 devpts /dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /dev/shm
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
# /tmp becomes the guest's own; a project directory or kernel cache that
# lives under the host's /tmp stays visible, bound back from the root as
# it was before
mkdir -p /run/vmtest/root
mount --bind / /run/vmtest/root
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp
for p in "$VMTEST_DIR" "$VMTEST_MODULES"; do
	case $p in
	/tmp/*)
		mkdir -p "$p"
		mount --bind "/run/vmtest/root$p" "$p" || fail "failed to keep $p visible under the guest's /tmp"
		;;
	esac
done
mount -t cgroup2 -o nsdelegate cgroup2 /sys/fs/cgroup || fail "failed to mount cgroup2"
echo +memory >/sys/fs/cgroup/cgroup.subtree_control ||
	fail "failed to enable the memory controller for the root cgroup's children"
mount -t bpf -o mode=700 bpf /sys/fs/bpf
mount -t debugfs -o nosuid,nodev,noexec debugfs /sys/kernel/debug
# last, so that no mount above hides them: the output directory, and the
# kernel's own modules where modprobe looks for them
mkdir -p "$VMTEST_OUTDIR"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 vmtest_out "$VMTEST_OUTDIR" ||
	fail "failed to mount the output directory $VMTEST_OUTDIR over 9p"
if [ -n "$VMTEST_MODULES" ]; then
	mkdir -p "/lib/modules/$(uname -r)"
	mount --bind "$VMTEST_MODULES" "/lib/modules/$(uname -r)"
fi
$bb hostname vmtest
$bb ip link set lo up 2>/dev/null

export VMTEST=1 VMTEST_OUTDIR
stty -F /dev/ttyS1 raw -echo
stty -F /dev/ttyS2 raw -echo
echo "ready $(uname -r)" >/dev/ttyS2
cd "$VMTEST_DIR" || fail "failed to enter the project directory $VMTEST_DIR"
if [ "$VMTEST_TTY" = 1 ]; then
	"${VMTEST_CMD[@]}" </dev/null >/dev/ttyS1 2>&1
	rc=$?
else
	"${VMTEST_CMD[@]}" </dev/null 2>&1 | cat >/dev/ttyS1
	rc=${PIPESTATUS[0]}
fi
# stty waits for the port to drain: all output is out before the status
stty -F /dev/ttyS1 raw -echo
echo "exit $rc" >/dev/ttyS2
stty -F /dev/ttyS2 raw -echo
EOF
chmod 755 "$INITRD/init"
(cd "$INITRD" && find . | "$BUSYBOX" cpio -o -H newc -R 0:0 2>/dev/null) >"$TMP/initramfs.cpio" ||
	die "failed to build the initramfs"

echo "$PROG: booting $DESC under $HOW, $CPUS CPUs, $MEM" >&2

# no_timer_check: at boot the kernel checks that the IO-APIC's timer ticks
# within a short busy loop; under TCG on a loaded host the loop can end
# first, and 6.1 then panics ("IO-APIC + timer doesn't work!", seen in make
# vmtest beside other builds).  The timer is qemu's own and works.
# shellcheck disable=SC2054 # commas separate qemu's sub-options
QEMU=(qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot
	-accel "$ACCEL" -cpu "$CPU" -smp "$CPUS" -m "$MEM"
	-kernel "$IMAGE" -initrd "$TMP/initramfs.cpio"
	-append "console=ttyS0 panic=-1 softlockup_panic=1 no_timer_check cgroup_no_v1=all${VMTEST_APPEND:+ $VMTEST_APPEND}"
	-serial "file:$TMP/console.log"
	-chardev stdio,id=out,signal=off -serial chardev:out
	-serial "file:$TMP/status"
	-virtfs local,path=/,mount_tag=vmtest_root,security_model=none,readonly=on,multidevs=remap
	-virtfs "local,path=$OUTDIR,mount_tag=vmtest_out,security_model=none,multidevs=remap")

# timeout in its own process group, so a terminal's Ctrl-C reaches only us;
# each layer dies with its parent, should we be killed outright
TMO=()
[ "$TIMEOUT" -eq 0 ] || TMO=(timeout -k 10 "$TIMEOUT")
setpriv --pdeathsig TERM "${TMO[@]}" setpriv --pdeathsig KILL "${QEMU[@]}" \
	</dev/null 2>"$TMP/qemu.err" &
VM_PID=$!
wait "$VM_PID"
vm_rc=$?
VM_PID=""

status=$(tr -d '\r' <"$TMP/status" 2>/dev/null)
[ "$VERBOSE" -eq 0 ] || { echo "$PROG: the guest's kernel log:" >&2; cat "$TMP/console.log" >&2; }
rc=$(sed -n 's/^exit \([0-9]\{1,3\}\)$/\1/p' <<<"$status" | tail -n 1)
if [ -n "$rc" ]; then
	exit "$rc"
fi
if [ -n "${TMO[*]}" ] && [ "$vm_rc" -eq 124 ]; then
	echo "$PROG: timed out after $TIMEOUT s: the VM was killed" >&2
	exit $EX_TIMEOUT
fi
tail -n 30 "$TMP/console.log" >&2 2>/dev/null
[ ! -s "$TMP/qemu.err" ] || cat "$TMP/qemu.err" >&2
reason=$(sed -n 's/^fail //p' <<<"$status" | head -n 1)
# Seen under TCG with Debian's 6.1: both vCPUs spinning in kmem_cache_alloc
# for good, in a cgroup mkdir and in an mmap; without softlockup_panic the
# VM ran on until the timeout.
lockup=$(tr -d '\r' <"$TMP/console.log" 2>/dev/null | grep -m1 -o 'soft lockup - .*')
if [ -n "$lockup" ]; then
	echo "$PROG: the guest kernel locked up ($lockup): kernel log above" >&2
elif [ -n "$reason" ]; then
	echo "$PROG: the VM failed to boot: $reason" >&2
elif grep -q '^ready' <<<"$status"; then
	echo "$PROG: the VM died while running the command (qemu exit $vm_rc): kernel log above" >&2
else
	echo "$PROG: the VM failed to boot (qemu exit $vm_rc): kernel log above" >&2
fi
exit $EX_VMFAIL
