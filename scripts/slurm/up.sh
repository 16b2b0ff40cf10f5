#!/usr/bin/env bash
# Brings up a one-node Slurm cluster on 127.0.0.1 (Debian's slurm-wlm, no systemd, no accounting).
# Idempotent: a cluster that already answers `sinfo` is left alone. Prints a notice and exits 0 when it
# cannot (not root, no apt-get), so the tests that need Slurm skip with their own notice.
set -u
notice() { echo "notice: slurm: $*"; exit 0; }
[ "$(id -u)" = 0 ] || notice "not root: cannot install or start Slurm here"
command -v apt-get >/dev/null || notice "no apt-get: cannot install Slurm here"
if timeout 5 sinfo -h >/dev/null 2>&1; then echo "slurm: already up"; exit 0; fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null \
   || ! command -v sbatch >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm slurmctld slurmd munge slurm-client \
    >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq slurm-wlm slurmctld slurmd munge slurm-client >/dev/null 2>&1; } \
    || notice "apt-get install slurm-wlm failed"
fi

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024) - 512}' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge /run/slurm
chown slurm:slurm /var/spool/slurmctld /var/log/slurm /run/slurm 2>/dev/null || true
# The munge key is made by the package; make one when it is missing.
[ -s /etc/munge/munge.key ] || mungekey --create >/dev/null 2>&1 || \
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key

cat > /etc/slurm/slurm.conf <<CONF
# Written by gym's scripts/slurm/up.sh: one node, every socket on 127.0.0.1, no accounting.
ClusterName=gym
SlurmctldHost=${host}(127.0.0.1)
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=slurm
AuthType=auth/munge
AuthInfo=cred_expire=10
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
MinJobAge=600
KillWait=5
InactiveLimit=0
OverTimeLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem} State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
touch /var/log/slurm/jobcomp.log; chown slurm:slurm /var/log/slurm/jobcomp.log

[ -d /sys/fs/cgroup ] && mountpoint -q /sys/fs/cgroup || echo "notice: slurm: /sys/fs/cgroup is not mounted; slurmd may fail"

pgrep -u munge -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged || notice "munged did not start"
pgrep -x slurmctld >/dev/null || slurmctld || notice "slurmctld did not start (see /var/log/slurm/slurmctld.log)"
pgrep -x slurmd >/dev/null || slurmd || notice "slurmd did not start (see /var/log/slurm/slurmd.log)"

for _ in $(seq 1 30); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
  scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 0.5
done
out=$(timeout 30 srun -N1 -t 1 /bin/echo slurm-ok 2>&1) || notice "a trivial job did not run: $out"
[ "$out" = slurm-ok ] || notice "a trivial job printed '$out'"
echo "slurm: up (node $host, $(sinfo -h -o '%T'))"
