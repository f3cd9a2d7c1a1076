// encoding.cc: (being written)
#include "indexer/encoding.h"
