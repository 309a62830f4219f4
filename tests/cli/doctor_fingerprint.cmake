# cmake -DIN=<baseline.json> -DOUT=<copy.json> -P doctor_fingerprint.cmake: a copy of a baseline
# whose fingerprint names another CPU, as if it had been recorded on another machine.
file(READ "${IN}" content)
string(JSON content SET "${content}" fingerprint cpu "\"Imaginary CPU 9000\"")
file(WRITE "${OUT}" "${content}")
