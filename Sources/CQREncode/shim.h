#ifndef ROUTERANKER_CQRENCODE_SHIM_H
#define ROUTERANKER_CQRENCODE_SHIM_H

// libqrencode's QR Code encoder, from Debian's libqrencode-dev.
#include <qrencode.h>

#endif
