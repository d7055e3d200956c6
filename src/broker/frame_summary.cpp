// What a person reads of a frame in the trace, made from its method (frames.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "src/broker/frames.h"

namespace broker {

namespace {

std::string_view id_or(const Message& message, std::string_view none) {
  return message.message_id.empty() ? none : std::string_view(message.message_id);
}

// "ack 7", "nack 7 requeue", "reject 7": a settlement of delivery `tag`.
void describe_settle(sim::SummaryParts& out, std::string_view name, std::uint64_t tag,
                     bool requeue) {
  out.add(name);
  out.add(tag);
  if (requeue) out.add(" requeue");
}

}  // namespace

void describe_payload(sim::SummaryParts& out, const ClientMethod& method) {
  std::visit(
      Overloaded{
          [&](const QosFrame& q) {
            out.add("qos prefetch=");
            out.add(q.prefetch);
          },
          [&](const ConsumeFrame& c) {
            out.add("consume ");
            out.add(c.queue);
            if (c.auto_ack) out.add(" no-ack");
          },
          [&](const ConfirmSelectFrame&) { out.add(sim::name_of(FrameKind::kConfirmSelect)); },
          [&](const PublishFrame& p) {
            out.add("publish ");
            out.add(id_or(p.message, "(no message_id)"));
            if (p.seq == 0) return;
            out.add(" seq=");
            out.add(p.seq);
          },
          [&](const AckFrame& a) { describe_settle(out, "ack ", a.tag, false); },
          [&](const NackFrame& n) { describe_settle(out, "nack ", n.tag, n.requeue); },
          [&](const RejectFrame& r) { describe_settle(out, "reject ", r.tag, r.requeue); },
      },
      method);
}

void describe_payload(sim::SummaryParts& out, const BrokerMethod& method) {
  std::visit(Overloaded{
                 [&](const DeliverFrame& f) {
                   out.add("deliver tag=");
                   out.add(f.delivery.delivery_tag);
                   out.add(f.delivery.redelivered ? " redelivered " : " ");
                   out.add(id_or(f.delivery.message, "(no id)"));
                 },
                 [&](const Confirm& c) {
                   out.add(c.ack ? "confirm " : "nack ");
                   if (c.multiple) out.add("<=");
                   out.add(c.seq);
                 },
                 [&](const Returned& r) {
                   out.add("return ");
                   out.add(r.reply_code);
                   out.add(" ");
                   out.add(r.reply_text);
                 },
                 [&](const ChannelClosed& c) {
                   out.add(sim::name_of(FrameKind::kChannelClose));
                   out.add(" ");
                   out.add(c.code);
                   out.add(" ");
                   out.add(c.text);
                 },
             },
             method);
}

std::string summary_text(const BrokerMethod& method) {
  sim::SummaryParts parts;
  describe_payload(parts, method);
  return parts.joined();
}

}  // namespace broker
