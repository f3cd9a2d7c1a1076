// json_feed.cc: (being written)
#include "indexer/json_feed.h"
