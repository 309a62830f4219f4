# cmake -DHATCHET=<a Proton hatchet> -DROOT=<dir> -P make_check_scope_inputs.cmake
# Lays one real capture (tests/fixtures/h200/vecadd_cupti/proton.hatchet: 20 add_kernel launches)
# out the ways that made `aorta check DIR` add several captures up (issue 23, item 2): the three
# trials of a sweep, a CTest results root of two tests, and a second copy beside the first.
file(REMOVE_RECURSE "${ROOT}")
foreach(trial IN ITEMS 0 1 2)
  file(COPY "${HATCHET}" DESTINATION "${ROOT}/sweep/trial_${trial}/proton")
endforeach()
foreach(test IN ITEMS test_a test_b)
  file(COPY "${HATCHET}" DESTINATION "${ROOT}/results/${test}/trial_0/proton")
endforeach()
file(COPY "${HATCHET}" DESTINATION "${ROOT}/copies")
file(COPY "${HATCHET}" DESTINATION "${ROOT}/copies/backup")
