// json_feed.h: (being written)
#pragma once
