# Install rules and the Aorta package; see the CMake integration work (issue 4).
