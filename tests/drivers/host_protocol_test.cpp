// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The driver-host protocol's decoders: what one side encodes the other
// decodes unchanged, and every truncated or inconsistent message is an error.
#include "driver_abi/host_protocol.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include "driver_abi/host_channel.h"

namespace annrt::abi {
namespace {

Shape shapeOf(OperandType type, std::vector<uint32_t> dims) {
  Shape shape;
  shape.type = type;
  shape.dims = std::move(dims);
  return shape;
}

// input [2] -> ADD(input, constant [2], activation 0) -> output [2]
Model addModel() {
  Model model;
  Subgraph& g = model.main;
  g.operands.resize(4);
  g.operands[0].shape = shapeOf(OperandType::TENSOR_FLOAT32, {2});
  g.operands[0].lifetime = Lifetime::SUBGRAPH_INPUT;
  g.operands[1].shape = shapeOf(OperandType::TENSOR_FLOAT32, {2});
  g.operands[1].lifetime = Lifetime::CONSTANT_COPY;
  g.operands[1].location = {0, 0, 8};
  g.operands[2].shape = shapeOf(OperandType::INT32, {});
  g.operands[2].lifetime = Lifetime::CONSTANT_COPY;
  g.operands[2].location = {0, 8, 4};
  g.operands[3].shape = shapeOf(OperandType::TENSOR_FLOAT32, {2});
  g.operands[3].lifetime = Lifetime::SUBGRAPH_OUTPUT;
  g.operations.push_back({OperationType::ADD, {0, 1, 2}, {3}});
  g.inputIndexes = {0};
  g.outputIndexes = {3};
  const float values[2] = {1.5f, -2.0f};
  const int32_t activation = 0;
  model.operandValues.resize(12);
  std::memcpy(model.operandValues.data(), values, 8);
  std::memcpy(model.operandValues.data() + 8, &activation, 4);
  return model;
}

Result<std::shared_ptr<Model>> decode(std::span<const uint8_t> bytes,
                                      const std::shared_ptr<SharedRegion>& constants) {
  WireReader in(bytes);
  ANNRT_ASSIGN_OR_RETURN(auto model, decodeModel(in, constants));
  ANNRT_RETURN_IF_ERROR(in.finish("model"));
  return model;
}

TEST(HostProtocolTest, ModelRoundTripsWithItsConstantsInSharedMemory) {
  const Model model = addModel();
  WireWriter out;
  auto encoded = encodeModel(model, out);
  ASSERT_TRUE(encoded.ok()) << encoded.error().message;
  ASSERT_NE(encoded->constants, nullptr);
  auto decoded = decode(out.bytes(), encoded->constants);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  const Model& back = **decoded;
  ASSERT_EQ(back.main.operands.size(), 4u);
  EXPECT_EQ(back.main.operations[0].inputs, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(back.main.operands[1].shape, model.main.operands[1].shape);
  EXPECT_EQ(back.main.operands[1].consumers, 1u);
  EXPECT_EQ(std::memcmp(back.constantData(back.main.operands[1]), model.operandValues.data(), 8),
            0);
  EXPECT_EQ(
      std::memcmp(back.constantData(back.main.operands[2]), model.operandValues.data() + 8, 4), 0);
  // The structure holds no constant bytes: they are in the memfd only.
  EXPECT_LT(out.bytes().size(), 400u);
}

TEST(HostProtocolTest, EveryTruncationOfAModelIsAnError) {
  const Model model = addModel();
  WireWriter out;
  auto encoded = encodeModel(model, out);
  ASSERT_TRUE(encoded.ok());
  const std::vector<uint8_t>& bytes = out.bytes();
  for (size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_FALSE(decode({bytes.data(), length}, encoded->constants).ok()) << length;
  }
}

TEST(HostProtocolTest, ConstantsOutsideTheSharedRegionAreAnError) {
  const Model model = addModel();
  WireWriter out;
  auto encoded = encodeModel(model, out);
  ASSERT_TRUE(encoded.ok());
  // The same structure against a region too small for its constants.
  auto small = SharedRegion::create(8, "small");
  ASSERT_TRUE(small.ok());
  auto decoded = decode(out.bytes(), *small);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("outside"), std::string::npos);
  EXPECT_FALSE(decode(out.bytes(), nullptr).ok());
}

TEST(HostProtocolTest, OperandIndexesOutOfRangeAreAnError) {
  Model model = addModel();
  model.main.operations[0].inputs[1] = 9;
  WireWriter out;
  auto encoded = encodeModel(model, out);
  ASSERT_TRUE(encoded.ok());
  auto decoded = decode(out.bytes(), encoded->constants);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("operand 9"), std::string::npos);
}

ExecuteRequest guardedRequest() {
  const uint64_t page = pageSize();
  ExecuteRequest request;
  request.prepared = 1;
  request.inputs = {{false, -1, 0, 8, {2}}};
  request.outputs = {{false, -1, 2 * page - 8, 8, {2}}};
  request.arenaSize = 3 * page;  // input page, output page, guard page
  return request;
}

TEST(HostProtocolTest, ExecuteRequestRoundTripsAndKeepsItsGuardPages) {
  const ExecuteRequest request = guardedRequest();
  WireWriter out;
  encodeExecuteRequest(request, out);
  auto decoded = decodeExecuteRequest(out.bytes());
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->outputs[0].offset, request.outputs[0].offset);
  EXPECT_TRUE(checkArenaLayout(*decoded, decoded->arenaSize).ok());
  for (size_t length = 0; length < out.bytes().size(); ++length) {
    EXPECT_FALSE(decodeExecuteRequest({out.bytes().data(), length}).ok()) << length;
  }
}

TEST(HostProtocolTest, ArenaLayoutsWithoutGuardsOrOutOfBoundsAreAnError) {
  const uint64_t page = pageSize();
  ExecuteRequest request = guardedRequest();
  request.arenaSize = 2 * page;  // no room for the guard page
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize).ok());
  request = guardedRequest();
  request.outputs[0].offset -= 4;  // ends inside a page
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize).ok());
  request = guardedRequest();
  request.inputs[0].offset = 2 * page;  // an input where the guard goes
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize).ok());
  request = guardedRequest();
  request.inputs[0].offset = UINT64_MAX - 2;  // wraps around
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize).ok());
}

TEST(HostProtocolTest, ArgumentsInApplicationFilesMustLieInThem) {
  ExecuteRequest request = guardedRequest();
  request.outputs[0] = {false, 0, 100, 8, {2}};  // in file 0, no guard page needed
  EXPECT_TRUE(checkArenaLayout(request, request.arenaSize, {108}).ok());
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize, {107}).ok());  // past its end
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize, {}).ok());     // no such file
  request.outputs[0].file = -2;
  EXPECT_FALSE(checkArenaLayout(request, request.arenaSize, {108}).ok());
}

TEST(HostProtocolTest, OutcomesMustMatchTheOutputs) {
  WireWriter out;
  encodeOutcome({ErrorCode::NO_ERROR, "", {{{2}, true}}, {}, {}}, out);
  EXPECT_TRUE(decodeOutcome(out.bytes(), 1).ok());
  EXPECT_FALSE(decodeOutcome(out.bytes(), 2).ok());
  WireWriter failed;
  encodeOutcome({ErrorCode::OP_FAILED, "no", {}, {}, {}}, failed);
  EXPECT_TRUE(decodeOutcome(failed.bytes(), 2).ok());
  WireWriter unknown;
  encodeOutcome({static_cast<ErrorCode>(99), "", {}, {}, {}}, unknown);
  EXPECT_FALSE(decodeOutcome(unknown.bytes(), 0).ok());
}

TEST(HostProtocolTest, FramesCarryADescriptorAndRejectGarbage) {
  int sockets[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets), 0);
  UniqueFd a(sockets[0]);
  UniqueFd b(sockets[1]);
  auto region = SharedRegion::create(100, "frame");
  ASSERT_TRUE(region.ok());
  const std::vector<uint8_t> payload = {1, 2, 3};
  const int fds[] = {(*region)->fd()};
  ASSERT_TRUE(sendMessage(a.get(), MessageType::EXECUTE, payload, fds).ok());
  auto message = receiveMessage(b.get(), Clock::now() + std::chrono::seconds(5));
  ASSERT_TRUE(message.ok()) << message.error().message;
  EXPECT_EQ(message->type, MessageType::EXECUTE);
  EXPECT_EQ(message->payload, payload);
  ASSERT_EQ(message->fds.size(), 1u);
  EXPECT_TRUE(message->fds[0].valid());
  // Nothing more arrives: a timeout, not a hang.
  auto none = receiveMessage(b.get(), Clock::now() + std::chrono::milliseconds(10));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::MISSED_DEADLINE_TRANSIENT);
  // A frame of an unknown type.
  const uint32_t garbage[2] = {0x77, 4};
  ASSERT_EQ(send(a.get(), garbage, sizeof(garbage), 0), static_cast<ssize_t>(sizeof(garbage)));
  EXPECT_EQ(receiveMessage(b.get(), std::nullopt).error().code, ErrorCode::OP_FAILED);
  a.reset();
  EXPECT_EQ(receiveMessage(b.get(), std::nullopt).error().code, ErrorCode::DEAD_OBJECT);
}

// A real annrt-driver-host answers malformed requests with errors and keeps
// serving (no failure reported, the same process throughout).
TEST(HostProtocolTest, TheHostAnswersMalformedRequestsWithErrors) {
  HostSettings settings;
  settings.hostPath = ANNRT_DRIVER_HOST_PATH;
  settings.library = ANNRT_SAMPLE_FLOAT_FAST;
  settings.timeout = std::chrono::seconds(10);
  std::vector<std::string> failed;
  HostEvents events;
  events.failed = [&](const std::vector<std::string>& devices) { failed = devices; };
  auto channel = HostChannel::start(settings, events);
  ASSERT_TRUE(channel.ok()) << channel.error().message;
  const Hello& hello = (*channel)->hello();
  ASSERT_EQ(hello.devices.size(), 1u);
  EXPECT_EQ(hello.devices[0].name, "sample-float-fast");
  auto generation = (*channel)->ensureRunning();
  ASSERT_TRUE(generation.ok());

  const std::vector<uint8_t> garbage = {1, 2, 3};
  auto status = [](const std::vector<uint8_t>& reply) {
    WireReader in(reply);
    return in.get<int32_t>();
  };
  for (MessageType type : {MessageType::SUPPORTED, MessageType::PREPARE, MessageType::RELEASE}) {
    auto reply = (*channel)->call(*generation, type, garbage);
    ASSERT_TRUE(reply.ok()) << reply.error().message;
    EXPECT_NE(status(*reply), 0) << static_cast<int>(type);
  }
  // A well-formed model for a device the host does not have.
  WireWriter prepare;
  prepare.put<uint32_t>(7);
  encodePrepareOptions({}, prepare);
  auto encoded = encodeModel(addModel(), prepare);
  ASSERT_TRUE(encoded.ok());
  const int constants[] = {encoded->constants->fd()};
  auto reply = (*channel)->call(*generation, MessageType::PREPARE, prepare.bytes(), constants);
  ASSERT_TRUE(reply.ok());
  EXPECT_NE(status(*reply), 0);
  // An execution of a prepared model that does not exist.
  WireWriter execute;
  encodeExecuteRequest(guardedRequest(), execute);
  reply = (*channel)->call(*generation, MessageType::EXECUTE, execute.bytes());
  ASSERT_TRUE(reply.ok());
  auto outcome = decodeOutcome(*reply, 1);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->status, ErrorCode::OP_FAILED);
  EXPECT_NE(outcome->message.find("no prepared model"), std::string::npos) << outcome->message;
  EXPECT_TRUE(failed.empty());
  EXPECT_GT((*channel)->pid(), 0);
}

}  // namespace
}  // namespace annrt::abi
