// CSQLiteConfig is its header: the calls are inline (see sqlite_config.h for why). A C target needs a source file.
#include "sqlite_config.h"
