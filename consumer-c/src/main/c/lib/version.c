#include "mdgate/version.h"

const char *mdgate_version(void)
{
    return "0.1.0";
}
