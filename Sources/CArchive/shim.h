#ifndef ROUTERANKER_CARCHIVE_SHIM_H
#define ROUTERANKER_CARCHIVE_SHIM_H

// libarchive's reader and writer (zip), from Debian's libarchive-dev.
#include <archive.h>
#include <archive_entry.h>

// zlib, from Debian's zlib1g-dev, for Gunzip: libarchive 3.6's gzip filter does not check a member's
// CRC-32 and length, and reads by pulling from a source where Gunzip is fed; libarchive links zlib anyway.
#include <zlib.h>

#endif
