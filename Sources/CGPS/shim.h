// libgps-dev: the gpsd client library.
#include <gps.h>
// ntp_adjtime(2): whether the system clock is synchronised, to decide if GPS time anchors When.
#include <sys/timex.h>
