// stb_image's implementation, compiled once and without our warnings (it is not our code).
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
