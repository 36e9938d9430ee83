// CTextScan is its header: the kernel is inline (see text_scan.h for why). A C target needs a source file.
#include "text_scan.h"
