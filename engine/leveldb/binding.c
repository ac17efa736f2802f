#define LEVELCORE_IMPLEMENTATION
#include "binding.h"
