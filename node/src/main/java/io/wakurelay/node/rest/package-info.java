/**
 * The REST API in nwaku's shapes (docs/rest.md). A request reaches {@link io.wakurelay.node.rest.RestServer}, passes
 * the {@code RequestGuard} ({@code HostPolicy}, {@code OriginPolicy}, body limits read by {@code Bodies}), and is
 * routed by path ({@code Paths}, {@code QueryParameters}) to {@code RelayApi} (publish through the
 * {@link io.wakurelay.node.rest.RelayPort}; subscriptions, whose messages {@link io.wakurelay.node.rest.LocalDelivery}
 * keeps as they arrived in the {@link io.wakurelay.node.rest.TopicCache} (rendered on read) and renders once for the
 * {@link io.wakurelay.node.rest.LiveStreams} of Server-Sent Events, as {@link io.wakurelay.node.rest.MessageJson}), {@code StoreApi} (a page of the node's
 * store, its parameters read as nwaku reads them by {@code StoreQueryParser}, or of another node's through
 * {@link io.wakurelay.node.rest.RemoteStore}, written by {@code StorePageJson}; without an archive, the
 * {@code --storenode}), {@code LightpushApi} and {@code LegacyLightpushApi} (v3 and nwaku's legacy v1, through the
 * {@link io.wakurelay.node.rest.LightpushPort}), {@code FilterApi} (nwaku's filter client API over the node's
 * {@code FilterClient}, whose pushes wait in the {@link io.wakurelay.node.rest.FilterMessageCache}), {@code NodeApi}
 * (health, version, info, adding peers, log level) or {@code AdminApi} (nwaku's admin views of peers and filter
 * subscribers). On a node without relay every /relay path is answered 404 in nwaku's words.
 * Answers go out through {@code Responses}; errors are {@link io.wakurelay.node.rest.HttpError}s (in
 * nwaku's words and text/plain where scripts compare them); {@code LingeringClose} answers an oversized request
 * line 431, nwaku's status for it, and lets a client still sending it read the answer;
 * {@link io.wakurelay.node.rest.RestConfig} holds the limits and {@link io.wakurelay.node.rest.RestMetrics} the meters.
 */
package io.wakurelay.node.rest;
