// Preloaded with `node --import <this file>` before every interop script.
//
// libp2p 2.x calls Promise.withResolvers (ES2024), which Node.js 22 has and Node.js 20 lacks. This defines it only
// when it is missing, with the behaviour of the TC39 proposal
// (https://github.com/tc39/proposal-promise-with-resolvers):
// NewPromiseCapability(this), so subclasses of Promise get an instance of themselves; a TypeError when `this` is not
// a constructor; a non-enumerable, writable, configurable property like the other Promise statics.
if (typeof Promise.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    value: function withResolvers() {
      const C = this
      if (typeof C !== 'function') {
        throw new TypeError('Promise.withResolvers called on a non-constructor')
      }
      let resolve
      let reject
      const promise = new C((res, rej) => {
        if (resolve !== undefined || reject !== undefined) {
          throw new TypeError('Promise executor has already been invoked with non-undefined arguments')
        }
        resolve = res
        reject = rej
      })
      if (typeof resolve !== 'function' || typeof reject !== 'function') {
        throw new TypeError('Promise resolve or reject function is not callable')
      }
      return { promise, resolve, reject }
    },
    writable: true,
    enumerable: false,
    configurable: true
  })
}
