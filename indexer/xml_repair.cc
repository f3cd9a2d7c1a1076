// xml_repair.cc: (being written)
#include "indexer/xml_repair.h"
