# Shared by the scripts that assemble an extension into a folder (sourced, not run):
# scripts/build-example-extension.sh here, and scripts/build-extension.sh of a project that
# `wallet-bridge new` wrote (through its WALLET_BRIDGE_DIR).
#
# extension_output_prepare SCRIPT OUT PROJECT READ_FOLDER...
#   Makes OUT an empty folder to assemble into, marked as written by SCRIPT, after removing what
#   an earlier run left there. OUT is replaced on every run, so it is refused (exit 2, saying why)
#   when it is PROJECT or a folder that holds it, lies inside a READ_FOLDER (what the build
#   copies from), is not a folder, or is a folder that is not empty and has no marker (not one
#   this wrote: nothing of yours is ever removed).
# extension_copy_js_runtime JS_SRC DEST
#   Copies the wallet-bridge JS modules an extension loads into DEST: index.js and every module
#   it imports, transitively; not the test runner (testing.js, fixture-runner.js), the OpenRPC
#   type generator's helpers or the .d.ts files.

EXTENSION_OUTPUT_MARKER=.wallet-bridge-extension-build

extension_output_prepare() {
  local script=$1 out=$2 project=$3
  shift 3
  local real project_real folder folder_real
  real=$(realpath -m -- "$out")
  project_real=$(realpath -m -- "$project")
  if [ "$real" = "$project_real" ] || [ "${project_real#"$real"/}" != "$project_real" ] || [ "$real" = / ]; then
    echo "$script: $out is the project's folder or holds it, and the output folder is replaced on every run: name a new folder, or leave it out for the default one" >&2
    return 2
  fi
  for folder in "$@"; do
    folder_real=$(realpath -m -- "$folder")
    if [ "$real" = "$folder_real" ] || [ "${real#"$folder_real"/}" != "$real" ]; then
      echo "$script: $out is inside $folder, which the build copies from: name a folder outside it" >&2
      return 2
    fi
  done
  if [ -e "$out" ] || [ -L "$out" ]; then
    if [ -L "$out" ] || [ ! -d "$out" ]; then
      echo "$script: $out exists and is not a folder: name a new folder" >&2
      return 2
    fi
    if [ ! -f "$out/$EXTENSION_OUTPUT_MARKER" ] && [ -n "$(ls -A -- "$out")" ]; then
      echo "$script: $out exists and was not written by this script (no $EXTENSION_OUTPUT_MARKER in it); it would be replaced: remove it yourself, or name a new folder" >&2
      return 2
    fi
    rm -rf -- "$out"
  fi
  mkdir -p -- "$out"
  echo "Written by $script; replaced on its next run." > "$out/$EXTENSION_OUTPUT_MARKER"
}

extension_copy_js_runtime() {
  local src=$1 dest=$2 module dependency
  local -a pending=(index.js) copied=()
  mkdir -p -- "$dest"
  while [ ${#pending[@]} -gt 0 ]; do
    module=${pending[0]}
    pending=("${pending[@]:1}")
    case " ${copied[*]-} " in *" $module "*) continue ;; esac
    [ -f "$src/$module" ] || { echo "extension_copy_js_runtime: no $src/$module" >&2; return 1; }
    cp -- "$src/$module" "$dest/$module"
    copied+=("$module")
    # Static imports and re-exports of a sibling module: `import … from './x.js'`, `export … from
    # './x.js'`, and the last line of a multi-line one (`} from './x.js';`).
    for dependency in $(sed -nE "s/^[[:space:]]*(import|export|\}).*[[:space:]]from[[:space:]]+'\.\/([A-Za-z0-9_-]+\.js)';?[[:space:]]*$/\2/p" "$src/$module"); do
      pending+=("$dependency")
    done
  done
}
