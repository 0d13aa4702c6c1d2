/* ixd_int.h: internals shared by the ixd source files. */
#ifndef IXD_INT_H
#define IXD_INT_H

#include "ixd_engine.h"

#endif
