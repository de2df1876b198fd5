# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Installed files point at each other by relative paths, so that an install
# works wherever `cmake --install --prefix` put it and after it is moved.

# annrt_install_relative_path(OUT FROM TO): the path from install directory
# FROM to install directory TO, both relative to the prefix as GNUInstallDirs
# gives them (TO may be "" for the prefix itself). OUT is empty when either is
# absolute: their relation then depends on the prefix, which is not known
# before installing.
function(annrt_install_relative_path out from to)
  if(IS_ABSOLUTE "${from}" OR IS_ABSOLUTE "${to}")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  cmake_path(SET to_path NORMALIZE "/prefix/${to}")
  cmake_path(RELATIVE_PATH to_path BASE_DIRECTORY "/prefix/${from}" OUTPUT_VARIABLE relative)
  string(REGEX REPLACE "(.)/$" "\\1" relative "${relative}")
  set(${out} "${relative}" PARENT_SCOPE)
endfunction()
