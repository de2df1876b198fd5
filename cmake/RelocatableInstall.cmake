# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Installed files point at each other by relative paths, so that an install
# works wherever `cmake --install --prefix` put it and after it is moved.

# annrt_relocatable_path(OUT ANCHOR FROM TO ABSOLUTE): how an installed file
# in install directory FROM names install directory TO, both relative to the
# prefix as GNUInstallDirs gives them ("" is the prefix itself): ANCHOR (what
# FROM is known as at run time, e.g. $ORIGIN or ${pcfiledir}) joined with the
# relative path from FROM to TO. When either is absolute their relation
# depends on the prefix, which is not known before installing: OUT is then
# ABSOLUTE.
function(annrt_relocatable_path out anchor from to absolute)
  if(IS_ABSOLUTE "${from}" OR IS_ABSOLUTE "${to}")
    set(${out} "${absolute}" PARENT_SCOPE)
    return()
  endif()
  cmake_path(SET to_path NORMALIZE "/prefix/${to}")
  cmake_path(SET from_path NORMALIZE "/prefix/${from}")
  cmake_path(RELATIVE_PATH to_path BASE_DIRECTORY "${from_path}" OUTPUT_VARIABLE relative)
  string(REGEX REPLACE "/$" "" relative "${relative}")
  set(${out} "${anchor}/${relative}" PARENT_SCOPE)
endfunction()
