# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# cmake -DBUILD_DIR=... -DPREFIX=... -DMODULE_DIR=... -DPYTHON=... -P install_test.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE failed OUTPUT_QUIET)
if(failed)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed")
endif()
# The module must load the installed library, not the build tree's.
set(check [=[
import annrt, sys
names = [d["name"] for d in annrt.devices()]
assert "nnapi-reference" in names, names
libraries = {line.split()[-1] for line in open("/proc/self/maps") if "libneuralnetworks" in line}
assert libraries and all(l.startswith(sys.argv[1]) for l in libraries), libraries
print(annrt.__file__, sorted(libraries), names)
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH
                        PYTHONPATH=${PREFIX}/${MODULE_DIR} ${PYTHON} -c "${check}" ${PREFIX}
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${PYTHON} cannot import the installed annrt module from ${PREFIX}/${MODULE_DIR}")
endif()
