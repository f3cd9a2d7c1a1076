// encoding.h: (being written)
#pragma once
