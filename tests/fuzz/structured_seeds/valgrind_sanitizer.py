"""Text formats: valgrind's callgrind output (Callgrind Format Specification) and
compute-sanitizer's report."""
from structured_seeds.common import REPEATED, RUN, U64_MAX


def callgrind_seeds():
    head = "version: 1\ncreator: callgrind\nevents: Ir\n"
    yield "repeated_callgrind.out", head + "fn=(1) main\n" + "0 1\n" * REPEATED
    yield "distinct_callgrind.out", head + "".join(f"fn=(%d) f%d\n0 1\n" % (i + 1, i)
                                                   for i in range(REPEATED))
    yield "calls_u64_callgrind.out", head + (f"fn=(1) main\ncfn=(2) f\ncalls={U64_MAX} 0\n"
                                             f"0 {U64_MAX}\n0 {U64_MAX}\n")
    # Calls summed over many call sites until the total passes 2^63.
    yield "calls_sum_callgrind.out", head + "fn=(1) main\n" + (
        f"cfn=(2) f\ncalls={2**62} 0\n0 1\n" * REPEATED)
    yield "long_line_callgrind.out", head + "fn=(1) " + "a" * RUN + "\n0 1\n"
    # One byte past callgrind_max_line_bytes (4 MiB): refused once that much of the line is read.
    yield "line_past_bound_callgrind.out", head + "fn=(1) " + "a" * ((4 << 20) - 6) + "\n0 1\n"
    # Issue 18: distinct functions, file names and call sites each grow a table of the reader
    # (max_callgrind_functions bounds them): names written out rather than compressed, one name
    # in 10^5 files, and 10^5 callees that never get a cost line of their own.
    yield "distinct_plain_names_callgrind.out", head + "".join(
        f"fn=f{i}\n0 1\n" for i in range(REPEATED + 1))
    yield "distinct_files_callgrind.out", head + "".join(
        f"fl=({i + 1}) src{i}.c\nfn=(1) f\n0 1\n" for i in range(REPEATED + 1))
    yield "distinct_callees_callgrind.out", head + "fn=(1) main\n0 1\n" + "".join(
        f"cfn=({i + 2}) callee{i}\ncalls=1 0\n0 1\n" for i in range(REPEATED + 1))


def sanitizer_log_seeds():
    banner = "========= COMPUTE-SANITIZER\n"
    block = ("========= Invalid __global__ write of size 4 bytes\n"
             "=========     at k()+0x10 in oob.cu:{}\n"
             "=========     by thread (0,0,0) in block (0,0,0)\n=========\n")
    yield "distinct_locations.log", banner + "".join(block.format(i) for i in range(REPEATED // 4)) \
        + f"========= ERROR SUMMARY: {REPEATED // 4} errors\n"
    kinds = "".join(f"========= Invalid kind {i} of size 4 bytes\n=========\n"
                    for i in range(REPEATED // 2))
    yield "distinct_kinds.log", banner + kinds + f"========= ERROR SUMMARY: {REPEATED // 2} errors\n"
    yield "total_u64_max.log", banner + f"========= ERROR SUMMARY: {U64_MAX} errors\n"
    yield "totals_sum.log", banner + f"========= ERROR SUMMARY: {2**63 - 1} errors\n" \
        + banner + "========= ERROR SUMMARY: 1 errors\n"
    yield "long_line.log", banner + "========= " + "x" * RUN + "\n"
