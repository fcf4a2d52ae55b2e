#!/bin/sh
# Print the Debian 6.1 kernel ABI version (e.g. 6.1.0-56-amd64) whose
# headers are installed; the VM boots exactly this kernel.
set -e
ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | sort -V | tail -n 1 | \
	sed 's|.*/linux-headers-||'
