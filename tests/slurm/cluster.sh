#!/usr/bin/env bash
# Start or stop a real single-node SLURM cluster on this machine, for testing the slurm profile.
#
#   tests/slurm/cluster.sh start   # installs the Debian packages if missing, starts the daemons
#   tests/slurm/cluster.sh env     # prints `export SLURM_CONF=...` for the client tools
#   tests/slurm/cluster.sh status  # sinfo + the daemons' PIDs
#   tests/slurm/cluster.sh stop    # stops every daemon this script started (by recorded PID)
#
# Daemons: munged -> mariadbd (own datadir, 127.0.0.1 only) -> slurmdbd -> slurmctld -> slurmd.
# All configs, state, logs and PID files live in $BENCHVAL_SLURM_DIR (default /tmp/benchval-slurm);
# nothing under /etc is changed except what the Debian packages install. Needs root (the daemons
# run as root/munge/mysql without systemd). Exit codes: 0 ok, 1 failure, 77 cannot run here
# (not root, or the packages are missing and apt cannot install them) -- the test skips on 77.
set -euo pipefail

DIR="${BENCHVAL_SLURM_DIR:-/tmp/benchval-slurm}"
CLUSTER_NAME="${BENCHVAL_SLURM_CLUSTER:-benchval}"
DB_PORT="${BENCHVAL_SLURM_DB_PORT:-3316}"
PIDS="$DIR/pids"
# Job steps cannot see SLURM_CONF: the executor plugin's job step drops every SLURM_* variable
# but a few before it calls srun, and srun then looks in the compiled-in default location. So
# the config is also linked there (only if nothing else is there; the link is removed on stop).
SYSTEM_CONF=/etc/slurm/slurm.conf
PACKAGES=(slurmctld slurmd slurm-client munge slurmdbd mariadb-server)

log() { printf '[cluster.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
cannot_run() { log "CANNOT RUN: $*"; exit 77; }

# Wait up to $2 seconds for the command in $1 to succeed; give up at once when the
# daemon started last (the last line of $PIDS) has died.
wait_for() {
    local cmd="$1" timeout="$2" waited=0 last_pid
    until eval "$cmd" >/dev/null 2>&1; do
        last_pid=$(tail -n 1 "$PIDS" 2>/dev/null | awk '{print $2}')
        if [ -n "$last_pid" ] && ! kill -0 "$last_pid" 2>/dev/null; then return 1; fi
        sleep 1
        waited=$((waited + 1))
        if [ "$waited" -ge "$timeout" ]; then return 1; fi
    done
}

ensure_packages() {
    local missing=()
    for pkg in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    command -v apt-get >/dev/null || cannot_run "packages missing (${missing[*]}) and apt-get is unavailable"
    log "installing ${missing[*]}"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
        >"$DIR/apt.log" 2>&1; then
        # A stale package list is the usual cause; refresh once and retry.
        DEBIAN_FRONTEND=noninteractive apt-get update >>"$DIR/apt.log" 2>&1 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
            >>"$DIR/apt.log" 2>&1 || cannot_run "apt-get install ${missing[*]} failed (see $DIR/apt.log)"
    fi
}

# Start "$@" in the background with its output in $DIR/log/<name>.log and record its PID.
start_daemon() {
    local name="$1"; shift
    "$@" >"$DIR/log/$name.log" 2>&1 &
    echo "$name $!" >>"$PIDS"
    log "started $name (pid $!)"
}

write_configs() {
    local mem_mb cpus
    cpus=$(nproc)
    mem_mb=$(( $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) - 1024 ))
    rm -rf "$DIR/etc"
    mkdir -p "$DIR"/{etc,log,spool/ctld,spool/d,run,mysql,mysqld-run}
    cat >"$DIR/etc/slurm.conf" <<EOF
ClusterName=$CLUSTER_NAME
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=30
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
MinJobAge=300
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
MpiDefault=none
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
StateSaveLocation=$DIR/spool/ctld
SlurmdSpoolDir=$DIR/spool/d
SlurmctldLogFile=$DIR/log/slurmctld.file.log
SlurmdLogFile=$DIR/log/slurmd.file.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    cat >"$DIR/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
DbdHost=localhost
SlurmUser=root
PidFile=$DIR/run/slurmdbd.pid
LogFile=$DIR/log/slurmdbd.file.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=benchval-slurm
StorageLoc=slurm_acct_db
EOF
    chmod 600 "$DIR/etc/slurmdbd.conf"
    link_system_conf
    # slurmdbd reads slurmdbd.conf from the directory of SLURM_CONF.
}

link_system_conf() {
    if [ -L "$SYSTEM_CONF" ] && [ "$(readlink "$SYSTEM_CONF")" = "$DIR/etc/slurm.conf" ]; then return; fi
    if [ -e "$SYSTEM_CONF" ] || [ -L "$SYSTEM_CONF" ]; then
        cannot_run "$SYSTEM_CONF exists and is not ours: this machine has a SLURM set-up; not touching it"
    fi
    mkdir -p "$(dirname "$SYSTEM_CONF")"
    ln -s "$DIR/etc/slurm.conf" "$SYSTEM_CONF"
}

unlink_system_conf() {
    if [ -L "$SYSTEM_CONF" ] && [ "$(readlink "$SYSTEM_CONF")" = "$DIR/etc/slurm.conf" ]; then
        rm -f "$SYSTEM_CONF"
    fi
}

start_munge() {
    if pgrep -x munged >/dev/null; then
        log "munged already running (not started by this script; left alone)"
        return
    fi
    [ -s /etc/munge/munge.key ] || die "/etc/munge/munge.key missing (the munge package creates it)"
    mkdir -p /run/munge && chown munge:munge /run/munge && chmod 755 /run/munge
    start_daemon munged setpriv --reuid=munge --regid=munge --clear-groups /usr/sbin/munged -F
    wait_for "munge -n | unmunge" 15 || die "munged did not come up (see $DIR/log/munged.log)"
}

start_mariadb() {
    chown -R mysql:mysql "$DIR/mysql" "$DIR/mysqld-run"
    setpriv --reuid=mysql --regid=mysql --clear-groups test -w "$DIR/mysql" \
        || die "user mysql cannot write $DIR/mysql: every folder above $DIR must be world-searchable (chmod o+x)"
    if [ ! -d "$DIR/mysql/mysql" ]; then
        mariadb-install-db --user=mysql --datadir="$DIR/mysql" --auth-root-authentication-method=socket \
            >"$DIR/log/mariadb-install.log" 2>&1 || die "mariadb-install-db failed (see $DIR/log/mariadb-install.log)"
    fi
    start_daemon mariadbd /usr/sbin/mariadbd --user=mysql --datadir="$DIR/mysql" \
        --bind-address=127.0.0.1 --port="$DB_PORT" --socket="$DIR/mysqld-run/mysqld.sock" \
        --pid-file="$DIR/mysqld-run/mysqld.pid" --skip-log-bin --innodb-buffer-pool-size=64M
    wait_for "mariadb --socket='$DIR/mysqld-run/mysqld.sock' -e 'select 1'" 60 \
        || die "mariadbd did not come up (see $DIR/log/mariadbd.log)"
    mariadb --socket="$DIR/mysqld-run/mysqld.sock" <<'EOF'
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'benchval-slurm';
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'benchval-slurm';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
FLUSH PRIVILEGES;
EOF
}

start_slurm() {
    export SLURM_CONF="$DIR/etc/slurm.conf"
    start_daemon slurmdbd /usr/sbin/slurmdbd -D
    wait_for "sacctmgr -n list cluster" 60 || die "slurmdbd did not answer (see $DIR/log/slurmdbd.log)"
    sacctmgr -i add cluster "$CLUSTER_NAME" >/dev/null 2>&1 || true
    sacctmgr -n list cluster format=cluster | grep -qw "$CLUSTER_NAME" \
        || die "could not register cluster $CLUSTER_NAME with slurmdbd"
    start_daemon slurmctld /usr/sbin/slurmctld -D -i
    wait_for "scontrol ping | grep -q UP" 30 || die "slurmctld did not come up (see $DIR/log/slurmctld.log)"
    start_daemon slurmd /usr/sbin/slurmd -D -N localhost
    wait_for "sinfo -h -N -o %t | grep -qx idle" 60 \
        || die "node not idle: $(sinfo -N 2>&1) (see $DIR/log/slurmd.log)"
}

cmd_start() {
    [ "$(id -u)" -eq 0 ] || cannot_run "must run as root (the SLURM daemons run without systemd)"
    if [ -s "$PIDS" ] && cmd_alive; then
        log "cluster already running (PIDs in $PIDS)"
        cmd_env
        return
    fi
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    ensure_packages
    rm -f "$PIDS"
    write_configs
    local t0=$SECONDS
    start_munge
    start_mariadb
    start_slurm
    SLURM_CONF="$DIR/etc/slurm.conf" timeout 60 srun -t 1 hostname >/dev/null \
        || die "srun hostname failed on the fresh cluster"
    log "cluster up in $((SECONDS - t0)) s; SLURM_CONF=$DIR/etc/slurm.conf"
    cmd_env
}

# True when every recorded daemon is still alive.
cmd_alive() {
    [ -s "$PIDS" ] || return 1
    while read -r name pid; do
        kill -0 "$pid" 2>/dev/null || return 1
    done <"$PIDS"
}

cmd_env() { echo "export SLURM_CONF=$DIR/etc/slurm.conf"; }

cmd_status() {
    export SLURM_CONF="$DIR/etc/slurm.conf"
    if [ -s "$PIDS" ]; then
        while read -r name pid; do
            if kill -0 "$pid" 2>/dev/null; then echo "$name $pid running"; else echo "$name $pid gone"; fi
        done <"$PIDS"
    else
        echo "no daemons recorded in $PIDS"
    fi
    sinfo 2>&1 || true
}

# Stop the recorded daemons in reverse start order: SIGTERM, wait, then SIGKILL.
cmd_stop() {
    if [ ! -s "$PIDS" ]; then
        log "nothing to stop (no $PIDS)"
        return 0
    fi
    export SLURM_CONF="$DIR/etc/slurm.conf"
    scancel --user=root >/dev/null 2>&1 || true
    tac "$PIDS" | while read -r name pid; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
            if kill -0 "$pid" 2>/dev/null; then
                log "$name (pid $pid) ignored SIGTERM; sending SIGKILL"
                kill -KILL "$pid" 2>/dev/null || true
            fi
            log "stopped $name (pid $pid)"
        fi
    done
    # slurmd forks a slurmstepd per job step; any left over belong to our jobs.
    for pidfile in "$DIR"/run/*.pid; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile" 2>/dev/null || true)
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; fi
    done
    unlink_system_conf
    mv "$PIDS" "$PIDS.stopped"
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    env) cmd_env ;;
    *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
