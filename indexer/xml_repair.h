// xml_repair.h: (being written)
#pragma once
