// libgps-dev: the gpsd client library.
#include <gps.h>
