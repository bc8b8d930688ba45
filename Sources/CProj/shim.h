// PROJ's geodesic routines (Karney's algorithms), from Debian's libproj-dev.
#include <geodesic.h>
