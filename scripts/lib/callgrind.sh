# The instruction count of `bioauth-dev bench --instructions` (source this file).
#
# callgrind_setup FOLDER builds the library valgrind 3.19 needs preloaded into the server
# (valgrind-sigsuspend.c: it crashes on libdispatch's read-only sigsuspend mask) into FOLDER and
# exports BIOAUTH_BENCH_VALGRIND_PRELOAD. callgrind_breakdowns FOLDER SIGN_INS writes each
# database's breakdown (scripts/callgrind_breakdown.py) to FOLDER/breakdown-<database>.txt and prints it.

callgrind_setup() {
    local folder
    folder="$(cd "$1" && pwd)"
    command -v valgrind >/dev/null || { echo "$0: valgrind is missing (Debian package valgrind)" >&2; exit 1; }
    cc -shared -fPIC -O2 -o "$folder/valgrind-sigsuspend.so" scripts/lib/valgrind-sigsuspend.c -ldl
    export BIOAUTH_BENCH_VALGRIND_PRELOAD="$folder/valgrind-sigsuspend.so"
}

callgrind_breakdowns() {
    local folder=$1 count=$2 profile database
    for profile in "$folder"/callgrind-*.out.1; do
        [[ -e "$profile" ]] || continue
        database="${profile##*/callgrind-}"
        database="${database%.out.1}"
        echo "[$database]"
        ./scripts/callgrind_breakdown.py "$profile" "$count" --top 25 | tee "$folder/breakdown-$database.txt"
    done
}
