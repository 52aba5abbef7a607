//! Services and their methods: streaming flags, input and output types as
//! written, and options (as statements or in a method's braces).

use buffa_types::google::protobuf::{MethodDescriptorProto, ServiceDescriptorProto};

use super::locations::Loc;
use super::option::Style;
use super::{Parser, Step, Stop};

/// `ServiceDescriptorProto.name` and `MethodDescriptorProto.name`.
const NAME: i32 = 1;
/// `ServiceDescriptorProto.method`.
const METHOD: i32 = 2;
/// `ServiceDescriptorProto.options`.
const SERVICE_OPTIONS: i32 = 3;
/// `MethodDescriptorProto.input_type`.
const INPUT_TYPE: i32 = 2;
/// `MethodDescriptorProto.output_type`.
const OUTPUT_TYPE: i32 = 3;
/// `MethodDescriptorProto.options`.
const METHOD_OPTIONS: i32 = 4;
/// `MethodDescriptorProto.client_streaming`.
const CLIENT_STREAMING: i32 = 5;
/// `MethodDescriptorProto.server_streaming`.
const SERVER_STREAMING: i32 = 6;

impl Parser<'_> {
    /// `service Name { ... }`, recorded at `loc`.
    pub(crate) fn parse_service_definition(
        &mut self,
        service: &mut ServiceDescriptorProto,
        loc: Loc,
    ) -> Step {
        self.consume("service")?;
        let name_loc = self.start(loc, &[NAME]);
        service.name = Some(self.consume_identifier("Expected service name.")?);
        self.finish(name_loc);
        self.consume_end_of_declaration("{", Some(loc))?;
        while !self.try_consume_end_of_declaration("}", None) {
            if self.at_end() {
                self.error("Reached end of input in service definition (missing '}').");
                return Err(Stop);
            }
            if self.parse_service_statement(service, loc).is_err() {
                self.skip_statement();
            }
        }
        Ok(())
    }

    /// One statement inside a service's braces.
    fn parse_service_statement(&mut self, service: &mut ServiceDescriptorProto, loc: Loc) -> Step {
        if self.try_consume_end_of_declaration(";", None) {
            Ok(())
        } else if self.looking_at("option") {
            let options_loc = self.start(loc, &[SERVICE_OPTIONS]);
            let options = &mut service.options.get_or_insert_default().uninterpreted_option;
            let result = self.parse_option(options, options_loc, Style::Statement);
            self.finish(options_loc);
            result
        } else {
            let method_loc = self.start(loc, &[METHOD, service.method.len() as i32]);
            let mut method = MethodDescriptorProto::default();
            let result = self.parse_method(&mut method, method_loc);
            service.method.push(method);
            self.finish(method_loc);
            result
        }
    }

    /// `rpc Name (stream In) returns (stream Out);` or with `{ options }`.
    fn parse_method(&mut self, method: &mut MethodDescriptorProto, loc: Loc) -> Step {
        self.consume("rpc")?;
        let name_loc = self.start(loc, &[NAME]);
        method.name = Some(self.consume_identifier("Expected method name.")?);
        self.finish(name_loc);
        self.consume("(")?;
        if self.looking_at("stream") {
            let stream_loc = self.start(loc, &[CLIENT_STREAMING]);
            method.client_streaming = Some(true);
            self.consume("stream")?;
            self.finish(stream_loc);
        }
        let input_loc = self.start(loc, &[INPUT_TYPE]);
        method.input_type = Some(self.parse_user_defined_type()?);
        self.finish(input_loc);
        self.consume(")")?;
        self.consume("returns")?;
        self.consume("(")?;
        if self.looking_at("stream") {
            let stream_loc = self.start(loc, &[SERVER_STREAMING]);
            self.consume("stream")?;
            method.server_streaming = Some(true);
            self.finish(stream_loc);
        }
        let output_loc = self.start(loc, &[OUTPUT_TYPE]);
        method.output_type = Some(self.parse_user_defined_type()?);
        self.finish(output_loc);
        self.consume(")")?;
        if self.looking_at("{") {
            self.parse_method_options(method, loc)
        } else {
            self.consume_end_of_declaration(";", Some(loc))
        }
    }

    /// A method's `{ option ...; }`.
    fn parse_method_options(&mut self, method: &mut MethodDescriptorProto, loc: Loc) -> Step {
        // protoc creates the options on `{`: `rpc M(A) returns (B) {}` has
        // options, present and empty.
        method.options.get_or_insert_default();
        let _ = self.consume_end_of_declaration("{", Some(loc));
        while !self.try_consume_end_of_declaration("}", None) {
            if self.at_end() {
                self.error("Reached end of input in method options (missing '}').");
                return Err(Stop);
            }
            if !self.try_consume_end_of_declaration(";", None) {
                let options_loc = self.start(loc, &[METHOD_OPTIONS]);
                let options = &mut method.options.get_or_insert_default().uninterpreted_option;
                if self
                    .parse_option(options, options_loc, Style::Statement)
                    .is_err()
                {
                    self.skip_statement();
                }
                self.finish(options_loc);
            }
        }
        Ok(())
    }
}
