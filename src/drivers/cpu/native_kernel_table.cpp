// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The table of native kernel forms per instruction set. Measurements are
// bench/native_kernel_bench.cpp at 1 thread (native, then XNNPACK, on the
// same one-operation graph), in microseconds; docs/native-kernels.md has
// the commands, the spread of the repeated runs and the whole-model A/B.
// - AVX-512: the host the kernels were written on (x86-64-v4, 2026-11-25;
//   README and the git log of src/drivers/cpu/native_*.cpp), then "Zen 5":
//   AMD EPYC family 26 (full-width AVX-512), 2 cores, quiet, 2026-11-26,
//   min-max of three runs, --native=all for the forms the column leaves on
//   XNNPACK.
//   "Xeon": an Intel Xeon (family 6 model 207, two 512-bit FMA units), 2
//   cores, quiet, 2026-11-30 (session 33), --native=all, min of three runs.
//   "Zen 4": AMD EPYC family 25 model 17 (AVX-512 on two 256-bit FMA
//   pipes), 2 cores, quiet, 2026-12-01 (session 40), min of three runs; its
//   AVX2 column figures with ANNRT_CPU_ISA=avx2 (XNNPACK there is Debian's
//   AVX-512 code; docs/native-kernels.md has the newest XNNPACK's AVX2).
// - AVX2: AMD EPYC (Zen 3, x86-64-v3, no AVX-512), 2 cores shared with other
//   jobs, 2026-11-25 (the column depthwise form 2026-11-26); three runs
//   each, one pair or the range given. "Zen 3": the forms added since on
//   AVX-512 hosts, measured on an AMD EPYC Zen 3 (family 25, model 1), 2
//   cores, quiet, 2026-11-28, --native=all, min-max of three runs.
// - Baseline and NEON: never measured, so nothing is used there.
#include "drivers/cpu/native_kernel_table.h"

#include <array>
#include <atomic>
#include <cstdlib>

#include "common/cpu_features.h"
#include "common/log.h"

namespace annrt::cpu {
namespace {

constexpr NativeDecision kUnmeasured{NativeUse::NO, "not measured on this instruction set"};

using Row = std::array<NativeDecision, kNativeIsaCount>;  // BASELINE, AVX2, AVX512, NEON

// Rows in NativeForm's order.
constexpr std::array<Row, kNativeFormCount> kTable = {{
    // DEPTHWISE_COLUMNS
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "8 channels x 8 pixels a block, columns streamed (min of 3 runs): 3x3 56x56x144 241 vs "
      "261, 112x112x24 151 vs 321, 128x128x16 131 vs 301, 32x32x88 45 vs 59, 256x256x8 265 vs "
      "882 (603 per tap); stride 2 128x128x16 43 vs 77, 112x112x64 151-165 vs 133-157 (not "
      "faster: 4 MB streamed from memory); 5x5 14x14x672 124 vs 293, 7x7x1152 43 vs 116, "
      "28x28x240 179 vs 439, stride 2 56x56x144 158 vs 228; hand_landmark_full 12.3 -> 11.0 ms. "
      "Zen 3, the range splatted once a row and any 8+ channels, the last group of 8 "
      "overlapping (min-max of 3): 3x3 56x56x144 241-318 vs 237-391, s2 112x112x64 147-189 vs "
      "130-176, 112x112x24 142-168 vs 377-413, 32x32x88 47-63 vs 72-76, s2 64x64x28 29.5-32.8 "
      "vs 40.6-48.0, 32x32x36 21.0-30.5 vs 42.3-47.1, s2 32x32x42 9.4-14.6 vs 15.0-16.3, "
      "48x48x12 20.2-27.3 vs 50.2-66.9; 5x5 14x14x672 168-173 vs 297-355"},
     {NativeUse::PREFERRED,
      "5x5 14x14x672 84 vs 251 (109 loading per tap), 7x7x1152 34 vs 91, 28x28x240 132 vs "
      "350; 3x3 56x56x144 171 vs 274, 112x112x24 99 vs 311. Zen 5: 3x3 56x56x144 104-110 vs "
      "138-143, 112x112x24 73-75 vs 175-193, 128x128x16 52-56 vs 164-173, 32x32x88 19-22 vs "
      "30-34, s2 128x128x16 19-20 vs 41-43; 5x5 14x14x672 41-49 vs 175-195, 7x7x1152 15-18 vs "
      "72-75, 28x28x240 72-76 vs 188-191, s2 56x56x144 67-70 vs 112-116; 3x3 s2 112x112x64 "
      "87-94 vs 78-79 until 3x3 blocks went through all their channels in turn (66-71; most "
      "3x3 shapes 0.88-0.91x then); any 8+ channels, the last group overlapping: 3x3 s2 "
      "64x64x28 8.0-8.2 vs 15.4-15.7, 32x32x36 7.7 vs 20.1-20.6, s2 32x32x42 3.7 vs 5.6-5.7, "
      "48x48x12 7.9-8.5 vs 21.5-23.8; face_detection_short_range 0.945x. Xeon: 3x3 "
      "56x56x144 163 vs 236, 112x112x24 95 vs 252, 128x128x16 67 vs 238, 32x32x88 26 vs 52, s2 "
      "128x128x16 26 vs 64; 5x5 14x14x672 70 vs 247, 7x7x1152 30 vs 99, 28x28x240 111 vs 262, "
      "s2 56x56x144 128 vs 154; but 3x3 s2 112x112x64 169-175 vs 150-152 (1.13x: its 3.2 MB "
      "input streamed from the L3 cache; a prefetch of the next rows made it 1.10x slower "
      "still), kept for the model's other shapes; 8 channels at stride 1 in pairs of pixels "
      "(vectors of 16): 3x3 256x256x8 166-170 vs 203-213 before, 128x128x8 48-49 vs 54-55"},
     kUnmeasured},
    // DEPTHWISE_8
    {kUnmeasured,
     {NativeUse::PREFERRED, "3x3 256x256x8 603 vs 1567, 128x128x8 130 vs 334"},
     {NativeUse::PREFERRED,
      "3x3 256x256x8 199 vs 770 (git 962ea23); Zen 5 (the column form): 256x256x8 158-168 vs "
      "652-729, 128x128x8 40-43 vs 161-179; Xeon: 221 vs 918, 56 vs 224"},
     kUnmeasured},
    // DEPTHWISE_WIDE
    {kUnmeasured,
     {NativeUse::NO,
      "slower: 3x3 128x128x16 809 vs 489, 112x112x24 716 vs 511, 56x56x144 1451 vs 599; 5x5 "
      "14x14x672 814 vs 456, 7x7x1152 284 vs 178"},
     {NativeUse::PREFERRED,
      "5x5 14x14x672 159 vs 251, 7x7x1152 90 vs 91 loading per tap (git d33bc6b); the column "
      "form takes 3x3 and 5x5 of stride 1 and 2 (so no default model's shape reaches this "
      "form on Zen 5)"},
     kUnmeasured},
    // CONV_BY_OUTPUT
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "Zen 3, alone (min-max of 3): 3x3 64x64 16 -> 16 254-297 vs 551-579, stride 2 256x256 "
      "3 -> 8 293-313 vs 474-508, 3 -> 16 235-269 vs 455-518. On the first AVX2 host, loaded, "
      "as a gap filler with ADD: pose_landmark_lite 0.87-1.01x, pose_landmark_full 0.94-0.99x"},
     {NativeUse::GAP,
      "1.0-2x slower than XNNPACK alone (1x1 and 3x3 from 3-16 channels); kept between "
      "native operations (pose_landmark_full's head). Zen 5 alone: 3x3 64x64 16 -> 16 180-185 "
      "vs 92-94, s2 256x256 3 -> 8 110-112 vs 96-97"},
     kUnmeasured},
    // CONV_BY_INPUT
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "3x3 8 -> 1 256x256 617 vs 7221, 16 -> 1 128x128 274 vs 3555; the AVX2 code on a Xeon "
      "with 8-pixel blocks: 212-241 (before 380-417), 100 (before 144-158)"},
     {NativeUse::PREFERRED,
      "3x3 8 -> 1 256x256 290 vs 1300; Zen 5: 8 -> 1 256x256 304-316 vs 793-820, 16 -> 1 "
      "128x128 111-117 vs 362-374; Xeon: 465 vs 1351, 152 vs 584; 8-pixel blocks in vectors "
      "of 16 (pixel pairs): 185-191 vs 1313, 99 vs 577"},
     kUnmeasured},
    // IMAGE_STEM
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "stride 2, 3x3 224x224 3 -> 24 300-468 vs 625-962, 256x256 3 -> 24 403-612 vs 822-1226, "
      "3 -> 16 191-380 vs 434-663, 192x192 3 -> 32 194-356 vs 457-683; 5x5 128x128 3 -> 24 "
      "348-424 vs 791-925 (54-82 GFLOP/s in the quietest run, XNNPACK 19-35); "
      "face_detection_short_range 3.36 -> 2.59 ms, face_detection_full_range 9.45 -> 8.35 "
      "(loaded host). Zen 3, 3 pixels a block for 24 channels (bench/native_kernel_ab.py, min "
      "of 20): 3x3 224x224 3 -> 24 183 (85% of the FMA peak) vs 618, 256x256 242 vs 809; 5x5 "
      "128x128 164 vs 553 (4 pixels a block: 273-359)"},
     {NativeUse::PREFERRED,
      "Zen 5 (--native=all), stride 2 in 16-float vectors (wideStemRow): 3x3 224x224 3 -> 24 "
      "102 vs 134, 256x256 3 -> 24 139 vs 176, 3 -> 16 75 vs 99, 192x192 3 -> 32 71 vs 100 "
      "(78% of the FMA peak); 5x5 128x128 3 -> 24 89 vs 105. In 8-float vectors it had not been "
      "faster (137 vs 138, 178 vs 180, 131 vs 100, 128 vs 102, 121 vs 109). Xeon: 3x3 224x224 3 "
      "-> 24 146 vs 260, 256x256 204 vs 340, 3 -> 16 108 vs 190, 192x192 3 -> 32 114 vs 196; "
      "5x5 128x128 3 -> 24 125 vs 213"},
     kUnmeasured},
    // TRANSPOSED_BLOCKS
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "2x2 stride 2 from 128x128: 16 -> 1 141-151 vs 600-684, 8 -> 1 128-130 vs 462-466"},
     {NativeUse::PREFERRED,
      "selfie_segmentation's 2x2 stride 2 16 -> 1: 0.058 ms vs XNNPACK's 0.37 (git 412142b); "
      "Zen 5: 16 -> 1 51-53 vs 197-203, 8 -> 1 46-48 vs 159-165; Xeon: 83 vs 321, 73 vs 266"},
     kUnmeasured},
    // POINTWISE_GEMM
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "6 x 16 tiles of 8-float vectors (native vs XNNPACK, us): 144 -> 24 on 56x56 306 vs "
      "916, 1152 -> 192 on 7x7 263 vs 692, 672 -> 112 on 14x14 355 vs 949, 16 -> 64 on "
      "112x112 545 vs 634, 8 -> 8 on 256x256 398 vs 454; 8 -> 16 on 128x128 153 vs 129 (then "
      "left to XNNPACK); 12-pixel tiles (8-wide panels 12 rows at once) then "
      "0.72-0.93x that time where K < 112, 0.49-1.04x the newest XNNPACK's GFLOP/s before. Zen "
      "3 (min-max of 3): faster on all 28 shapes of the bench, 8 -> 16 on 128x128 83-110 vs "
      "148-183, 8 -> 32 on 96x96 90-117 vs 148-175, 8 -> 8 on 256x256 275-310 vs 562-699, 144 "
      "-> 24 on 56x56 291-451 vs 847-946, 1152 -> 192 on 7x7 291-338 vs 633-647, so used on "
      "every shape. Zen 4 against the newest XNNPACK's AVX2 GEMM (us): 672 -> 112 on 14x14 261 "
      "vs 259, 24 -> 144 on 56x56 203 vs 204, 144 -> 24 224 vs 410, 48 -> 39 on 64x64 166 vs "
      "306"},
     {NativeUse::PREFERRED,
      "144 -> 24 on 56x56 205 vs 257, 240 -> 40 on 28x28 149 vs 161, 32 -> 8 on 96x96 65 vs 91; "
      "1152 -> 192 on 7x7 0.84-0.92x in hand_landmark_full. Zen 5, with 8-pixel tiles where "
      "K < 48: faster on all 22 shapes of the bench, 0.73-0.95x (8 -> 8 on 256x256 116 vs 159, "
      "8 -> 32 on 96x96 33 vs 38, 16 -> 64 on 112x112 133 vs 153, 1152 -> 192 86 vs 107, "
      "48 -> 24 on 48x48 34 vs 36), so used on every shape: every default model 0.95-1.00x "
      "its time at 1 thread, 0.89-0.98x at 2, against native only from 112 input channels, "
      "on narrow tails and past the L2 cache (the rule of the first AVX-512 host's 12-pixel "
      "tiles, where 16 -> 64, 24 -> 144, 8 -> 32 and 24 -> 48 had lost). Xeon, with whole "
      "tiles of 8, 16 or 24 input channels K a constant and products of up to 8 outputs in "
      "AVX2's 12-pixel tiles (before them 16 -> 16, 16 -> 8, 24 -> 16 and 32 -> 8 had been "
      "1.02-1.05x): 0.70-0.96x on 31 of the 32 shapes (8 -> 8 on 256x256 162 vs 210, 16 -> 16 on "
      "128x128 77 vs 93, 144 -> 24 on 56x56 190 vs 222, 1152 -> 192 122 vs 158), 12 -> 48 on "
      "48x48 level (24.8 vs 23.6, medians 26.4 vs 29.1); with a last panel of 48 where "
      "K < 48: 32 -> 36 on 32x32 21.7 vs 24.5 (before 27.6 vs 25.0), 36 -> 42 27.4 vs 27.4, "
      "12 -> 48 21.4 vs 28.4. Zen 4: level (within 2%) or faster on 26 of 37 shapes (144 -> 24 "
      "on 56x56 200 vs 256, 672 -> 112 256 vs 255); 1.02-1.08x Debian XNNPACK's time on 11, "
      "most of them shallow ones in 8-pixel tiles by a panel of 48 (12 -> 48 on 48x48 28.4 vs "
      "26.3, 48 -> 39 on 64x64 179 vs 168; AVX2's 12-pixel tiles 0.91-0.93x their time on 12 "
      "-> 48 and 32 -> 36), also 24 -> 144 on 56x56 207 vs 197: kept, as this column is of "
      "the instruction set (the Xeon's two 512-bit units)"},
     kUnmeasured},
    // ADD
    {kUnmeasured,
     {NativeUse::GAP,
      "Zen 3, alone (min-max of 3): 128x128x16 49.0-53.6 vs 47.6-52.2, 64x64x24 21.2-21.4 vs "
      "20.9-21.9, 32x32x40 9.2-11.1 vs 8.7-10.9, 16x16x80 5.6-5.7 vs 5.4-6.3, 8x8x192 3.4-5.6 "
      "vs 4.2-5.0: level, kept between native operations (the landmark models' residuals, "
      "each an XNNPACK stage of its own otherwise). On the first AVX2 host, loaded, as a gap "
      "filler with conv by output: pose_landmark_lite 0.87-1.01x, pose_landmark_full "
      "0.94-0.99x"},
     {NativeUse::GAP, "kept between native operations (pose_landmark_full's head)"},
     kUnmeasured},
    // ADD_PADDED_CHANNELS
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "48x48 24 -> 32 channels 78-92 vs 127-131, 12x12 64 -> 96 9.7-11.4 vs 15.4-19.0"},
     {NativeUse::PREFERRED,
      "face_detection_full_range 2.22 -> 1.93 ms with the PAD + ADD pairs native (git 96f20b0); "
      "Zen 5: 48x48 24 -> 32 26-27 vs 45-47, 12x12 64 -> 96 3.3-4.3 vs 5.0-5.2; Xeon: 49 vs 73, "
      "7.0 vs 10.0"},
     kUnmeasured},
    // RESIZE_BILINEAR
    {kUnmeasured,
     {NativeUse::PREFERRED, "2x of 64x64x16 135 vs 233, 32x32x24 53 vs 82, 16x16x128 66 vs 93"},
     {NativeUse::PREFERRED,
      "2x of 64x64x16 48 vs 68; Zen 5: 64x64x16 39-46 vs 64-67, 32x32x24 15-18 vs 21-22, "
      "16x16x128 16-23 vs 25; Xeon: 73 vs 112, 27 vs 36, 31 vs 38"},
     kUnmeasured},
    // MAX_POOL
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "Zen 3, 2x2 stride 2 (--native=all, min-max of 3): 64x64x28 14.7-19.0 vs 25.2-34.0, "
      "32x32x42 6.9-8.5 vs 10.2-14.2, 16x16x88 4.1-5.3 vs 5.6-7.7, 96x96x32 30.9-40.3 vs "
      "57.6-73.1, 48x48x64 15.4-20.5 vs 25.2-32.8, 24x24x128 8.5-11.5 vs 11.5-17.7, 112x112x16 "
      "25.7-33.9 vs 46.1-68.9"},
     {NativeUse::PREFERRED,
      "Zen 5, 2x2 stride 2 (min-max of 5): 64x64x28 5.8-5.9 vs 13.5-14.7, 32x32x42 2.6-2.8 vs "
      "5.5-5.7, 16x16x88 1.6-1.7 vs 2.7-2.8, 96x96x32 15.3-16.1 vs 32.8-33.7, 48x48x64 "
      "6.5-6.6 vs 13.9-14.0, 24x24x128 3.6 vs 6.8-6.9, 112x112x16 11.4-11.5 vs 29.3-30.0; Xeon "
      "(min of 3): 11.3 vs 19.2, 5.1 vs 7.8, 3.0 vs 3.9, 28.6 vs 46.6, 11.0 vs 20.7, 6.1 vs 9.9, "
      "20.7 vs 38.6"},
     kUnmeasured},
    // CONCATENATION
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "Zen 3 (min-max of 3): [1,512,16] + [1,384,16] on axis 1 11.3-18.3 vs 27.5-39.4, "
      "[1,512,1] + [1,384,1] 2.0-3.1 vs 24.7-38.1"},
     {NativeUse::PREFERRED,
      "Zen 5, face_detection_short_range's outputs on axis 1 (XNNPACK: inputs padded and "
      "added): [1,512,16] + [1,384,16] 1.4 vs 12.4-12.6, [1,512,1] + [1,384,1] 0.9 vs "
      "10.7-11.9; Xeon: 2.9 vs 19.5, 1.4 vs 16.9"},
     kUnmeasured},
    // RESHAPE
    {kUnmeasured,
     {NativeUse::GAP,
      "Zen 3, a copy alone (min-max of 3): [1,8,8,96] 2.5-3.3 vs 2.1-3.8, [1,16,16,32] 2.1-3.5 vs "
      "2.4-3.8, [1,64,64,32] 17.6-20.5 vs 18.9-21.2: level, after native operations only"},
     {NativeUse::GAP,
      "Zen 5, a copy alone level with XNNPACK's (min-max of 5): [1,8,8,96] 0.85-0.86 vs "
      "0.88-0.94, [1,16,16,32] 0.91-0.94 vs 0.93-0.95, [1,64,64,32] 5.9-6.2 vs 5.8-6.2; "
      "after native operations only, so that they need not stay on XNNPACK"},
     kUnmeasured},
    // GLOBAL_AVERAGE_POOL
    {kUnmeasured,
     {NativeUse::GAP,
      "Zen 3, alone (min-max of 3): 16x16x96 3.1-4.1 vs 4.0-4.9, 32x32x24 3.8-4.5 vs 3.5-5.0, "
      "64x64x16 7.8-9.2 vs 6.7-9.1, 128x128x16 25.3-32.1 vs 21.5-28.8: level but the largest, "
      "kept between native operations"},
     {NativeUse::GAP,
      "Zen 5, alone (min-max of 3, a fuzzer on the other core): 16x16x96 1.6-1.7 vs 1.7-1.8, "
      "32x32x24 1.9 vs 1.8, 64x64x16 4.0-4.3 vs 3.5, 128x128x16 13.4-15.7 vs 12.8-12.9: kept "
      "between native operations (selfie segmentation's squeeze-and-excitation blocks)"},
     kUnmeasured},
    // MUL
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "Zen 3, by a vector of channels (min-max of 3): 128x128x16 39.8-51.1 vs 138.9-173.6, "
      "64x64x16 11.7-18.2 vs 32.5-49.5, 32x32x24 5.7-7.5 vs 12.8-17.1, 16x16x96 5.1-6.3 vs "
      "6.8-8.5"},
     {NativeUse::PREFERRED,
      "Zen 5, by a vector of channels (min-max of 5, a fuzzer on the other core): 128x128x16 "
      "21.2-21.6 vs 62.9-71.4, 64x64x16 5.2-5.4 vs 16.0-16.6, 32x32x24 2.4-2.5 vs 6.0-6.2, "
      "16x16x96 2.3-2.5 vs 2.6-2.9; Xeon: 49.7 vs 110, 10.5 vs 26.8, 4.5 vs 9.7, 4.2 vs 4.9"},
     kUnmeasured},
    // HARD_SWISH
    {kUnmeasured,
     {NativeUse::GAP,
      "Zen 3, alone, 8 floats a vector, four a step (min-max of 3): 128x128x16 39.3-43.9 vs "
      "34.3-41.7, 16x16x96 5.5-6.3 vs 4.7-5.8, 16x16x128 6.7-7.2 vs 5.5-6.8: 1.05-1.2x, kept "
      "between native operations only (16-float vectors had been 6-8x: one select a lane)"},
     {NativeUse::GAP,
      "Zen 5, alone, 16 floats a vector (min-max of 3): 128x128x16 21.0-21.9 vs 20.5-20.9, "
      "16x16x128 2.3 vs 2.3, 16x16x96 1.9 vs 1.9: level, kept between native operations"},
     kUnmeasured},
    // LOGISTIC
    {kUnmeasured,
     {NativeUse::GAP,
      "Zen 3, alone, the portable kernel in 8-float vectors (min-max of 3): 1x1x96 1.6-2.0 vs "
      "1.4-2.5, 64x64x1 4.2-4.5 vs 3.0-3.8, 256x256x1 42.4-46.2 vs 30.8-34.2 (inputs to +-100 "
      "the same since e^-|x| is taken): 1.2-1.4x slower, so at most 4096 elements and only "
      "between native operations, where it saves an XNNPACK stage (the landmark models' "
      "scores, selfie segmentation's squeeze-and-excitation blocks)"},
     {NativeUse::GAP,
      "Zen 5, alone, the table-and-scalef kernel (medians of 5, two runs): 64x64x1 1.90-1.94 vs "
      "1.97-2.04 (level), 1x1x96 level, 256x256x1 14.7-16.2 vs 13.9-14.7, so the kernel takes at "
      "most 4096 elements; kept between native operations. 256x256x1 of inputs to +-100 (a "
      "segmentation's logits) 14.9-15.1 vs 13.9-15.0 since e^x stops short of the subnormals "
      "(41.9-42.7 before)"},
     kUnmeasured},
    // CLAMP
    {kUnmeasured,
     {NativeUse::GAP,
      "Zen 3, alone, RELU (min-max of 3): 6x6x96 2.7-2.9 vs 2.7-2.8, 12x12x96 3.5-3.8 vs "
      "3.0-4.1, 24x24x64 6.6-7.4 vs 5.9-7.3, 48x48x48 16.8-17.0 vs 17.2-18.2 (RELU6 16.4-18.5 vs "
      "16.4-18.1): level, kept between native operations"},
     {NativeUse::GAP,
      "Zen 5, alone, RELU (min-max of 3, a build on the other core): 6x6x96 0.79-0.82 vs "
      "0.80-0.82, 12x12x96 1.27-1.30 vs 1.29-1.30, 24x24x64 2.21-2.23 vs 2.16-2.21, 48x48x48 "
      "6.05-6.82 vs 6.02-6.93 (RELU6 6.28-6.80 vs 5.90-6.76): level, kept between native "
      "operations (face_detection_full_range's RELUs of convolutions run before others)"},
     kUnmeasured},
    // FULLY_CONNECTED
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "Zen 3, alone (min-max of 3): 1152 -> 63 5.3-7.6 vs 8.4-8.9 us, 1152 -> 1 2.7-3.2 vs "
      "3.9-4.1, 8 rows 256 -> 128 8.8-10.3 vs 20.9-21.4"},
     {NativeUse::PREFERRED,
      "Zen 5, alone, --native=all (medians of 3, two runs, fuzzers at nice 19 beside): 1152 -> 63 "
      "2.64-2.68 vs 5.21-5.29 us, 1152 -> 1 1.08-1.14 vs 1.91-1.96, 8 rows 256 -> 128 "
      "2.96-3.01 vs 5.45 (one row: four split sums; as one chain 4.27-4.42 and 1.89-1.98). "
      "Xeon: 4.5 vs 7.0, 1.6 vs 2.6, 4.3 vs 8.0"},
     kUnmeasured},
    // FOLDED_ACTIVATION
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "Zen 3 (min-max of 3): folded against XNNPACK's pair, stem 3x3 256x256 3 -> 16 then "
      "HARD_SWISH 243-296 vs 522-565, 1x1 16x16 32 -> 128 then HARD_SWISH 35-46 vs 69-73, "
      "transposed 2x2 16 -> 1 from 128x128 then LOGISTIC 140-172 vs 535-613; depthwise 3x3 "
      "16x16x96 then HARD_SWISH 22.0-23.8 vs 23.3-23.9 (the convolution alone 16.7-21.7, the "
      "activation 5.5-6.3)"},
     {NativeUse::PREFERRED,
      "Zen 5, folded vs the convolution and the activation alone (medians of 5, three runs): "
      "stem 3x3 256x256 3 -> 16 then HARD_SWISH 160-168 vs 170-178, depthwise 3x3 16x16x96 then "
      "HARD_SWISH 10.1-11.7 vs 11.1-12.1, 1x1 16x16 32 -> 128 then HARD_SWISH 25.0-26.9 vs "
      "25.8-27.0; transposed 2x2 16 -> 1 from 128x128 then LOGISTIC 92-103 vs 89-94 (its "
      "division is the cost either way). selfie_segmentation and its landscape model, all "
      "native with it (7 alternations): inference 1.010 and 1.006x, warm start's Init 3580 -> "
      "2828 and 3340 -> 2688 us (no XNNPACK runtime left to make). Xeon, against XNNPACK's "
      "pair: stem 130 vs 258, depthwise 10.4 vs 12.8, 1x1 17.8 vs 20.5, transposed 104 vs 338"},
     kUnmeasured},
    // BANDED_PAIR
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "AVX2 code on an Intel Xeon (ANNRT_CPU_ISA=avx2; no AVX2-only host yet), banded vs one "
      "after the other, 1 thread, two runs each: 1x1 112x112 16 -> 64 then depthwise 3x3 s2 "
      "462-465 vs 526-533 us; 1x1 56x56 24 -> 144 then 5x5 s2 404-406 vs 400-403; stride-1 "
      "consumers level or slower (3x3 56x56x144 459-475 vs 462-466, after a stem 347-350 vs "
      "342-347: not banded); a depthwise 3x3 then a 1x1 product: 112x112 64 -> 16 710-717 vs "
      "729-738, 256x256 8 -> 8 360-363 vs 360-370"},
     {NativeUse::PREFERRED,
      "Intel Xeon, banded vs one after the other, 1 thread, two runs each: 1x1 112x112 16 -> 64 "
      "then depthwise 3x3 s2 288-302 vs 365-374 us; 1x1 56x56 24 -> 144 then 5x5 s2 243-244 vs "
      "257-260; stride-1 consumers of images that fit the 2 MB L2 level (3x3 56x56x144 392-398 "
      "vs 387-394, after a stem 243-249 vs 244-245: not banded); a depthwise 3x3 then a 1x1 "
      "product: 112x112 64 -> 16 475-477 vs 571-597, 256x256 8 -> 8 359-360 vs 360-368"},
     kUnmeasured},
    // FOLDED_ADD
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "AVX2 code on an Intel Xeon (ANNRT_CPU_ISA=avx2; no AVX2-only host yet), folded vs the "
      "convolution's kernel then the ADD's (the library before the fold), then ADD of a second "
      "input, 1 thread, two runs each: 1x1 96x96 8 -> 32 121-123 vs 189-190 us, 1x1 256x256 8 "
      "-> 8 263-269 vs 401-404, 1x1 128x128 16 -> 16 152-158 vs 223-232, depthwise 3x3 "
      "128x128x16 154 vs 213-226, 1x1 64x64 24 -> 24 72-74 vs 82-83, 1x1 56x56 144 -> 24 "
      "286-298 vs 295-301; whole models 0.92-0.98, the hand models level (0.99-1.02). Into "
      "resizes and MULs (the library with the convolutions' folds only before): 2x resize "
      "128x128x8 then ADD 271-282 vs 429-438, 32x32x48 71-72 vs 107-108, MUL 128x128x16 by "
      "its channels then ADD 121-130 vs 174-181; selfie_segmentation 0.956, the rest level. "
      "With a PAD of the addend's channels (before: the ADD's kernel taking the PAD in): 1x1 "
      "48x48 32 -> 48 then ADD 110 vs 123-125, 64x64 24 -> 28 110 vs 111-114"},
     {NativeUse::PREFERRED,
      "Intel Xeon, folded vs the convolution's kernel then the ADD's (the library before the "
      "fold), then ADD of a second input, 1 thread, two runs each: 1x1 96x96 8 -> 32 106 vs "
      "170-173 us, 1x1 256x256 8 -> 8 266-271 vs 397-432, 1x1 128x128 16 -> 16 118-121 vs "
      "193-195, depthwise 3x3 128x128x16 116-122 vs 185, 1x1 64x64 24 -> 24 56-61 vs 65-66, 1x1 "
      "56x56 144 -> 24 211-212 vs 222-249; whole models 0.93-0.98 at 1 thread, 0.90-0.97 at 2, "
      "the hand models level at 1 (0.99-1.01). Into resizes and MULs (the library with the "
      "convolutions' folds only before): 2x resize 128x128x8 then ADD 281-287 vs 433-446, "
      "32x32x48 70-71 vs 108-109, MUL 128x128x16 by its channels then ADD 119-129 vs 177-180; "
      "selfie_segmentation 0.97 at 1 thread and 0.96 at 2, the rest 0.95-1.01. With a PAD of "
      "the addend's channels (before: the ADD's kernel taking the PAD in): 1x1 48x48 32 -> 48 "
      "then ADD 71-76 vs 87-92, 64x64 24 -> 28 131-134 vs 137-140; the face models level "
      "(0.98-1.03 over 3-5 alternations)"},
     kUnmeasured},
    // FOLDED_SUM
    {kUnmeasured,
     {NativeUse::PREFERRED,
      "AVX2 code on an Intel Xeon (ANNRT_CPU_ISA=avx2), folded (the average summing in parts on "
      "the pool) vs the ADD's kernel then the average's, whole models alternated (5 and 3 "
      "times): selfie_segmentation 0.97 at 1 thread, 0.99 at 2 (the only default model with "
      "the pattern); the bench case (two inputs, ADD, average) is the inputs' copy, level"},
     {NativeUse::PREFERRED,
      "Intel Xeon, folded vs the ADD's kernel then the average's, whole models alternated 5 "
      "times: selfie_segmentation 0.97-0.99 at 1 thread; at 2 threads 1.01-1.03 while the "
      "folded average ran on one thread, 0.95-0.96 once it summed in parts on the pool"},
     kUnmeasured},
    // POOLED_BANDS
    {kUnmeasured,
     {NativeUse::NO,
      "AVX2 code on an Intel Xeon (ANNRT_CPU_ISA=avx2; no AVX2-only host yet), 2 threads, "
      "banded by parts vs one after the other on the pool, three alternations: 1x1 112x112 16 "
      "-> 64 then depthwise 3x3 s2 250-275 vs 256-266 us, depthwise 3x3 112x112x64 then 1x1 to "
      "16 352-368 vs 358-373: level"},
     {NativeUse::PREFERRED,
      "Intel Xeon, 2 threads, banded by parts vs one after the other on the pool, three "
      "alternations: 1x1 112x112 16 -> 64 then depthwise 3x3 s2 148-157 vs 160-163 us, "
      "depthwise 3x3 112x112x64 then 1x1 to 16 255-275 vs 280-288; 256x256x8 (1 MB a thread) "
      "185-196 vs 178-180, hence only over 1 MB a thread; whole models at 2 threads "
      "hand_landmark_full 0.99, pose_landmark_full 0.98, the rest 0.99-1.02. Zen 5 (PVM guest), "
      "whole models at 2 threads against the table with it NO, three alternations: "
      "hand_landmark_full 0.89-1.00, pose_landmark_full 0.92-0.99, hand_landmark_lite "
      "0.89-0.94"},
     kUnmeasured},
}};

constexpr std::array<std::string_view, kNativeIsaCount> kIsaNames = {"baseline", "avx2", "avx512",
                                                                     "neon"};
constexpr std::array<std::string_view, kNativeFormCount> kFormNames = {"depthwise columns",
                                                                       "depthwise 8",
                                                                       "depthwise wide",
                                                                       "conv by output",
                                                                       "conv by input",
                                                                       "image stem",
                                                                       "transposed",
                                                                       "pointwise GEMM",
                                                                       "add",
                                                                       "add padded",
                                                                       "resize bilinear",
                                                                       "max pool",
                                                                       "concatenation",
                                                                       "reshape",
                                                                       "global average pool",
                                                                       "mul",
                                                                       "hard swish",
                                                                       "logistic",
                                                                       "clamp",
                                                                       "fully connected",
                                                                       "folded activation",
                                                                       "banded pair",
                                                                       "folded add",
                                                                       "folded sum",
                                                                       "pooled bands"};

constexpr size_t index(NativeIsa isa) {
  return static_cast<size_t>(isa);
}

NativeIsa isaFromEnvironment() {
  const NativeIsa host = hostNativeIsa();
  const char* value = std::getenv("ANNRT_CPU_ISA");
  if (value == nullptr || *value == '\0') return host;
  const std::optional<NativeIsa> isa = parseNativeIsa(value);
  if (!isa) {
    logWarning("ignoring ANNRT_CPU_ISA={}: not baseline, avx2, avx512 or neon", value);
    return host;
  }
  if (!nativeIsaRuns(*isa)) {
    logWarning("ignoring ANNRT_CPU_ISA={}: this build or CPU cannot run it; using {}", value,
               nativeIsaName(host));
    return host;
  }
  return *isa;
}

struct Selection {
  explicit Selection(NativeIsa isa) : code(isa), decisions(isa) {}
  std::atomic<NativeIsa> code, decisions;
};

Selection& selection() {
  static Selection s(isaFromEnvironment());
  return s;
}

}  // namespace

std::string_view nativeIsaName(NativeIsa isa) {
  return kIsaNames[index(isa)];
}

std::optional<NativeIsa> parseNativeIsa(std::string_view name) {
  for (size_t i = 0; i < kIsaNames.size(); ++i) {
    if (kIsaNames[i] == name) return static_cast<NativeIsa>(i);
  }
  return std::nullopt;
}

bool nativeIsaRuns(NativeIsa isa) {
#if ANNRT_NATIVE_VARIANTS_BUILT
  switch (isa) {
    case NativeIsa::BASELINE: return true;
    case NativeIsa::AVX2: return cpuFeatures().x86_64V3();
    case NativeIsa::AVX512: return cpuFeatures().x86_64V4();
    case NativeIsa::NEON: return false;
  }
  return false;
#elif defined(__aarch64__)
  return isa == NativeIsa::NEON;
#else
  return isa == NativeIsa::BASELINE;
#endif
}

NativeIsa hostNativeIsa() {
  for (NativeIsa isa : {NativeIsa::AVX512, NativeIsa::AVX2, NativeIsa::NEON}) {
    if (nativeIsaRuns(isa)) return isa;
  }
  return NativeIsa::BASELINE;
}

std::string_view nativeFormName(NativeForm form) {
  return kFormNames[static_cast<size_t>(form)];
}

const NativeDecision& nativeDecision(NativeForm form, NativeIsa isa) {
  return kTable[static_cast<size_t>(form)][index(isa)];
}

NativeIsa nativeCodeIsa() {
  return selection().code.load(std::memory_order_relaxed);
}

NativeIsa nativeDecisionIsa() {
  return selection().decisions.load(std::memory_order_relaxed);
}

NativeKernelMode nativeKernelMode() {
  const char* value = std::getenv("ANNRT_CPU_NATIVE_KERNELS");
  if (value == nullptr) return NativeKernelMode::TABLE;
  if (std::string_view(value) == "0") return NativeKernelMode::OFF;
  return std::string_view(value) == "all" ? NativeKernelMode::ALL : NativeKernelMode::TABLE;
}

NativeUse nativeFormUse(NativeForm form) {
  if (nativeKernelMode() == NativeKernelMode::ALL) return NativeUse::PREFERRED;
  return nativeDecision(form, nativeDecisionIsa()).use;
}

ScopedNativeIsa::ScopedNativeIsa(NativeIsa code, NativeIsa decisions)
    : savedCode_(nativeCodeIsa()), savedDecisions_(nativeDecisionIsa()) {
  selection().code.store(code, std::memory_order_relaxed);
  selection().decisions.store(decisions, std::memory_order_relaxed);
}

ScopedNativeIsa::~ScopedNativeIsa() {
  selection().code.store(savedCode_, std::memory_order_relaxed);
  selection().decisions.store(savedDecisions_, std::memory_order_relaxed);
}

}  // namespace annrt::cpu
