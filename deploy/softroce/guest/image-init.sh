#!/bin/sh
# PID 1 of the Soft-RoCE guest (kernel command line init=/usr/local/sbin/mdgate-init), baked into the image.
# It only mounts the two shares run.sh passes in and hands over to the runner found on the read-only one,
# so that the runner and the payload change without rebuilding the image. Whatever goes wrong, the guest
# powers off: the host notices the missing status file and reports the failure.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mountpoint -q /run || mount -t tmpfs -o mode=0755 tmpfs /run
mountpoint -q /tmp || mount -t tmpfs -o mode=1777 tmpfs /tmp
exec </dev/null >/dev/console 2>&1
echo 1 >/proc/sys/kernel/sysrq

power_off()
{
    sync
    echo o >/proc/sysrq-trigger
    sleep 60
}

opts=trans=virtio,version=9p2000.L,msize=262144
if ! modprobe -a 9p 9pnet_virtio \
    || ! mount -t 9p -o "$opts,ro" mdgate /mdgate \
    || ! mount -t 9p -o "$opts" results /results; then
    echo "mdgate-init: cannot mount the mdgate and results shares (virtio-9p); powering off"
    power_off
fi
if [ ! -f /mdgate/bed/runner.sh ]; then
    echo "mdgate-init: /mdgate/bed/runner.sh is missing from the share; powering off"
    power_off
fi
/bin/bash /mdgate/bed/runner.sh
echo "mdgate-init: runner ended with exit code $?; powering off"
power_off
