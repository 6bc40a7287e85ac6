// SPDX-License-Identifier: MIT
// The launch geometry of an AQL kernel-dispatch packet, copied into what a kernel sees of its dispatch.
#pragma once

#include <hsa.h>

namespace sim {

/// Copies the packet's dimensions (setup field), grid and work-group sizes (work-items) and kernarg address
/// into `out`: an hsa_sim_dispatch_t (simulated code objects) or an hsa_sim_standin_launch_t (stand-ins of
/// real code objects), which share these field names. HSA 1.2 system architecture §2.9.7.
template <typename Launch>
void copy_dispatch_geometry(const hsa_kernel_dispatch_packet_t& packet, Launch& out) {
    out.dimensions = (packet.setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) & 0x3;
    out.grid_size[0] = packet.grid_size_x;
    out.grid_size[1] = packet.grid_size_y;
    out.grid_size[2] = packet.grid_size_z;
    out.workgroup_size[0] = packet.workgroup_size_x;
    out.workgroup_size[1] = packet.workgroup_size_y;
    out.workgroup_size[2] = packet.workgroup_size_z;
    out.kernarg = packet.kernarg_address;
}

} // namespace sim
