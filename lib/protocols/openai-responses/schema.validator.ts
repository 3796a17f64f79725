// Generated from lib/protocols/openai-responses/schema.ts (responsesBodySchema) by scripts/generate-validators.cjs. Do not edit:
// change the schema, then run `node scripts/generate-validators.cjs`.
// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)
import type { GeneratedValidator } from '../shared/validate';
import { ucs2length as func2 } from '../shared/validator-runtime';

export const validate: GeneratedValidator = validate21;
const schema6 = {"type":"object","required":["model"],"properties":{"model":{"type":"string","minLength":1},"input":{"type":["string","array"],"items":{"type":"object","properties":{"type":{"type":"string"},"role":{"type":"string"},"content":{"type":["string","array","null"],"items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"}}}},"call_id":{"type":"string"},"name":{"type":"string"},"arguments":{"type":"string"},"input":{"type":"string"},"output":{"type":["string","array"]},"summary":{"type":"array","items":{"type":"object","properties":{"text":{"type":"string"}}}},"encrypted_content":{"type":["string","null"]}}}},"instructions":{"type":["string","null"]},"stream":{"type":["boolean","null"]},"max_output_tokens":{"type":["integer","null"],"minimum":1},"temperature":{"type":["number","null"],"minimum":0,"maximum":2},"top_p":{"type":["number","null"],"minimum":0,"maximum":1},"tools":{"type":["array","null"],"items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"},"name":{"type":"string","minLength":1},"description":{"type":["string","null"]},"parameters":{"type":["object","null"]},"strict":{"type":["boolean","null"]},"tools":{"type":"array","items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"},"name":{"type":"string","minLength":1}}}}}}},"tool_choice":{"type":["string","object","null"]},"parallel_tool_calls":{"type":["boolean","null"]},"text":{"type":["object","null"],"properties":{"format":{"type":"object","required":["type"],"properties":{"type":{"enum":["text","json_object","json_schema"]},"name":{"type":"string"},"schema":{"type":"object"},"strict":{"type":["boolean","null"]},"description":{"type":"string"}}},"verbosity":{"type":["string","null"],"enum":["low","medium","high",null]}}},"reasoning":{"type":["object","null"],"properties":{"effort":{"type":["string","null"],"enum":["none","minimal","low","medium","high","xhigh",null]},"summary":{"type":["string","null"],"enum":["auto","concise","detailed",null]},"generate_summary":{"type":["string","null"],"enum":["auto","concise","detailed",null]}}},"metadata":{"type":["object","null"],"additionalProperties":{"type":"string"}},"user":{"type":"string"},"safety_identifier":{"type":"string"},"prompt_cache_key":{"type":"string"},"include":{"type":["array","null"],"items":{"type":"string"}},"store":{"type":["boolean","null"]},"truncation":{"type":["string","null"],"enum":["auto","disabled",null]},"service_tier":{"type":["string","null"]},"background":{"type":["boolean","null"]},"previous_response_id":{"type":["string","null"]}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.model === undefined) && (missing0 = "model")){
validate21.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.model !== undefined){
let data0 = data.model;
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func2(data0) < 1){
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.input !== undefined){
let data1 = data.input;
const _errs3 = errors;
if((typeof data1 !== "string") && (!(Array.isArray(data1)))){
validate21.errors = [{instancePath:instancePath+"/input",schemaPath:"#/properties/input/type",keyword:"type",params:{type: schema6.properties.input.type},message:"must be string,array"}];
return false;
}
if(errors === _errs3){
if(Array.isArray(data1)){
var valid1 = true;
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
const _errs5 = errors;
if(errors === _errs5){
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.type !== undefined){
const _errs7 = errors;
if(typeof data2.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/type",schemaPath:"#/properties/input/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs7 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.role !== undefined){
const _errs9 = errors;
if(typeof data2.role !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/role",schemaPath:"#/properties/input/items/properties/role/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs9 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.content !== undefined){
let data5 = data2.content;
const _errs11 = errors;
if(((typeof data5 !== "string") && (!(Array.isArray(data5)))) && (data5 !== null)){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/content",schemaPath:"#/properties/input/items/properties/content/type",keyword:"type",params:{type: schema6.properties.input.items.properties.content.type},message:"must be string,array,null"}];
return false;
}
if(errors === _errs11){
if(Array.isArray(data5)){
var valid3 = true;
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
const _errs13 = errors;
if(errors === _errs13){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
let missing1;
if((data6.type === undefined) && (missing1 = "type")){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/content/" + i1,schemaPath:"#/properties/input/items/properties/content/items/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data6.type !== undefined){
if(typeof data6.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/content/" + i1+"/type",schemaPath:"#/properties/input/items/properties/content/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/content/" + i1,schemaPath:"#/properties/input/items/properties/content/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid3 = _errs13 === errors;
if(!valid3){
break;
}
}
}
}
var valid2 = _errs11 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.call_id !== undefined){
const _errs17 = errors;
if(typeof data2.call_id !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/call_id",schemaPath:"#/properties/input/items/properties/call_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs17 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.name !== undefined){
const _errs19 = errors;
if(typeof data2.name !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/name",schemaPath:"#/properties/input/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs19 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.arguments !== undefined){
const _errs21 = errors;
if(typeof data2.arguments !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/arguments",schemaPath:"#/properties/input/items/properties/arguments/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs21 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.input !== undefined){
const _errs23 = errors;
if(typeof data2.input !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/input",schemaPath:"#/properties/input/items/properties/input/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs23 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.output !== undefined){
let data12 = data2.output;
const _errs25 = errors;
if((typeof data12 !== "string") && (!(Array.isArray(data12)))){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/output",schemaPath:"#/properties/input/items/properties/output/type",keyword:"type",params:{type: schema6.properties.input.items.properties.output.type},message:"must be string,array"}];
return false;
}
var valid2 = _errs25 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.summary !== undefined){
let data13 = data2.summary;
const _errs27 = errors;
if(errors === _errs27){
if(Array.isArray(data13)){
var valid5 = true;
const len2 = data13.length;
for(let i2=0; i2<len2; i2++){
let data14 = data13[i2];
const _errs29 = errors;
if(errors === _errs29){
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.text !== undefined){
if(typeof data14.text !== "string"){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/summary/" + i2+"/text",schemaPath:"#/properties/input/items/properties/summary/items/properties/text/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/summary/" + i2,schemaPath:"#/properties/input/items/properties/summary/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs29 === errors;
if(!valid5){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/summary",schemaPath:"#/properties/input/items/properties/summary/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid2 = _errs27 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.encrypted_content !== undefined){
let data16 = data2.encrypted_content;
const _errs33 = errors;
if((typeof data16 !== "string") && (data16 !== null)){
validate21.errors = [{instancePath:instancePath+"/input/" + i0+"/encrypted_content",schemaPath:"#/properties/input/items/properties/encrypted_content/type",keyword:"type",params:{type: schema6.properties.input.items.properties.encrypted_content.type},message:"must be string,null"}];
return false;
}
var valid2 = _errs33 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/input/" + i0,schemaPath:"#/properties/input/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs5 === errors;
if(!valid1){
break;
}
}
}
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.instructions !== undefined){
let data17 = data.instructions;
const _errs35 = errors;
if((typeof data17 !== "string") && (data17 !== null)){
validate21.errors = [{instancePath:instancePath+"/instructions",schemaPath:"#/properties/instructions/type",keyword:"type",params:{type: schema6.properties.instructions.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs35 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stream !== undefined){
let data18 = data.stream;
const _errs37 = errors;
if((typeof data18 !== "boolean") && (data18 !== null)){
validate21.errors = [{instancePath:instancePath+"/stream",schemaPath:"#/properties/stream/type",keyword:"type",params:{type: schema6.properties.stream.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs37 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.max_output_tokens !== undefined){
let data19 = data.max_output_tokens;
const _errs39 = errors;
if((!((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19)))) && (data19 !== null)){
validate21.errors = [{instancePath:instancePath+"/max_output_tokens",schemaPath:"#/properties/max_output_tokens/type",keyword:"type",params:{type: schema6.properties.max_output_tokens.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs39){
if(typeof data19 == "number"){
if(data19 < 1 || isNaN(data19)){
validate21.errors = [{instancePath:instancePath+"/max_output_tokens",schemaPath:"#/properties/max_output_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs39 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.temperature !== undefined){
let data20 = data.temperature;
const _errs41 = errors;
if((!(typeof data20 == "number")) && (data20 !== null)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/type",keyword:"type",params:{type: schema6.properties.temperature.type},message:"must be number,null"}];
return false;
}
if(errors === _errs41){
if(typeof data20 == "number"){
if(data20 > 2 || isNaN(data20)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/maximum",keyword:"maximum",params:{comparison: "<=", limit: 2},message:"must be <= 2"}];
return false;
}
else {
if(data20 < 0 || isNaN(data20)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs41 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.top_p !== undefined){
let data21 = data.top_p;
const _errs43 = errors;
if((!(typeof data21 == "number")) && (data21 !== null)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/type",keyword:"type",params:{type: schema6.properties.top_p.type},message:"must be number,null"}];
return false;
}
if(errors === _errs43){
if(typeof data21 == "number"){
if(data21 > 1 || isNaN(data21)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1"}];
return false;
}
else {
if(data21 < 0 || isNaN(data21)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs43 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tools !== undefined){
let data22 = data.tools;
const _errs45 = errors;
if((!(Array.isArray(data22))) && (data22 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: schema6.properties.tools.type},message:"must be array,null"}];
return false;
}
if(errors === _errs45){
if(Array.isArray(data22)){
var valid7 = true;
const len3 = data22.length;
for(let i3=0; i3<len3; i3++){
let data23 = data22[i3];
const _errs47 = errors;
if(errors === _errs47){
if(data23 && typeof data23 == "object" && !Array.isArray(data23)){
let missing2;
if((data23.type === undefined) && (missing2 = "type")){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3,schemaPath:"#/properties/tools/items/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data23.type !== undefined){
const _errs49 = errors;
if(typeof data23.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/type",schemaPath:"#/properties/tools/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid8 = _errs49 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data23.name !== undefined){
let data25 = data23.name;
const _errs51 = errors;
if(errors === _errs51){
if(typeof data25 === "string"){
if(func2(data25) < 1){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/name",schemaPath:"#/properties/tools/items/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/name",schemaPath:"#/properties/tools/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs51 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data23.description !== undefined){
let data26 = data23.description;
const _errs53 = errors;
if((typeof data26 !== "string") && (data26 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/description",schemaPath:"#/properties/tools/items/properties/description/type",keyword:"type",params:{type: schema6.properties.tools.items.properties.description.type},message:"must be string,null"}];
return false;
}
var valid8 = _errs53 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data23.parameters !== undefined){
let data27 = data23.parameters;
const _errs55 = errors;
if((!(data27 && typeof data27 == "object" && !Array.isArray(data27))) && (data27 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/parameters",schemaPath:"#/properties/tools/items/properties/parameters/type",keyword:"type",params:{type: schema6.properties.tools.items.properties.parameters.type},message:"must be object,null"}];
return false;
}
var valid8 = _errs55 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data23.strict !== undefined){
let data28 = data23.strict;
const _errs57 = errors;
if((typeof data28 !== "boolean") && (data28 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/strict",schemaPath:"#/properties/tools/items/properties/strict/type",keyword:"type",params:{type: schema6.properties.tools.items.properties.strict.type},message:"must be boolean,null"}];
return false;
}
var valid8 = _errs57 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data23.tools !== undefined){
let data29 = data23.tools;
const _errs59 = errors;
if(errors === _errs59){
if(Array.isArray(data29)){
var valid9 = true;
const len4 = data29.length;
for(let i4=0; i4<len4; i4++){
let data30 = data29[i4];
const _errs61 = errors;
if(errors === _errs61){
if(data30 && typeof data30 == "object" && !Array.isArray(data30)){
let missing3;
if((data30.type === undefined) && (missing3 = "type")){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/tools/" + i4,schemaPath:"#/properties/tools/items/properties/tools/items/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data30.type !== undefined){
const _errs63 = errors;
if(typeof data30.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/tools/" + i4+"/type",schemaPath:"#/properties/tools/items/properties/tools/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid10 = _errs63 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data30.name !== undefined){
let data32 = data30.name;
const _errs65 = errors;
if(errors === _errs65){
if(typeof data32 === "string"){
if(func2(data32) < 1){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/tools/" + i4+"/name",schemaPath:"#/properties/tools/items/properties/tools/items/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/tools/" + i4+"/name",schemaPath:"#/properties/tools/items/properties/tools/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid10 = _errs65 === errors;
}
else {
var valid10 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/tools/" + i4,schemaPath:"#/properties/tools/items/properties/tools/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid9 = _errs61 === errors;
if(!valid9){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/tools",schemaPath:"#/properties/tools/items/properties/tools/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid8 = _errs59 === errors;
}
else {
var valid8 = true;
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3,schemaPath:"#/properties/tools/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid7 = _errs47 === errors;
if(!valid7){
break;
}
}
}
}
var valid0 = _errs45 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tool_choice !== undefined){
let data33 = data.tool_choice;
const _errs67 = errors;
if(((typeof data33 !== "string") && (!(data33 && typeof data33 == "object" && !Array.isArray(data33)))) && (data33 !== null)){
validate21.errors = [{instancePath:instancePath+"/tool_choice",schemaPath:"#/properties/tool_choice/type",keyword:"type",params:{type: schema6.properties.tool_choice.type},message:"must be string,object,null"}];
return false;
}
var valid0 = _errs67 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.parallel_tool_calls !== undefined){
let data34 = data.parallel_tool_calls;
const _errs69 = errors;
if((typeof data34 !== "boolean") && (data34 !== null)){
validate21.errors = [{instancePath:instancePath+"/parallel_tool_calls",schemaPath:"#/properties/parallel_tool_calls/type",keyword:"type",params:{type: schema6.properties.parallel_tool_calls.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs69 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.text !== undefined){
let data35 = data.text;
const _errs71 = errors;
if((!(data35 && typeof data35 == "object" && !Array.isArray(data35))) && (data35 !== null)){
validate21.errors = [{instancePath:instancePath+"/text",schemaPath:"#/properties/text/type",keyword:"type",params:{type: schema6.properties.text.type},message:"must be object,null"}];
return false;
}
if(errors === _errs71){
if(data35 && typeof data35 == "object" && !Array.isArray(data35)){
if(data35.format !== undefined){
let data36 = data35.format;
const _errs73 = errors;
if(errors === _errs73){
if(data36 && typeof data36 == "object" && !Array.isArray(data36)){
let missing4;
if((data36.type === undefined) && (missing4 = "type")){
validate21.errors = [{instancePath:instancePath+"/text/format",schemaPath:"#/properties/text/properties/format/required",keyword:"required",params:{missingProperty: missing4},message:"must have required property '"+missing4+"'"}];
return false;
}
else {
if(data36.type !== undefined){
let data37 = data36.type;
const _errs75 = errors;
if(!(((data37 === "text") || (data37 === "json_object")) || (data37 === "json_schema"))){
validate21.errors = [{instancePath:instancePath+"/text/format/type",schemaPath:"#/properties/text/properties/format/properties/type/enum",keyword:"enum",params:{allowedValues: schema6.properties.text.properties.format.properties.type.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid12 = _errs75 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data36.name !== undefined){
const _errs76 = errors;
if(typeof data36.name !== "string"){
validate21.errors = [{instancePath:instancePath+"/text/format/name",schemaPath:"#/properties/text/properties/format/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid12 = _errs76 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data36.schema !== undefined){
let data39 = data36.schema;
const _errs78 = errors;
if(!(data39 && typeof data39 == "object" && !Array.isArray(data39))){
validate21.errors = [{instancePath:instancePath+"/text/format/schema",schemaPath:"#/properties/text/properties/format/properties/schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid12 = _errs78 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data36.strict !== undefined){
let data40 = data36.strict;
const _errs80 = errors;
if((typeof data40 !== "boolean") && (data40 !== null)){
validate21.errors = [{instancePath:instancePath+"/text/format/strict",schemaPath:"#/properties/text/properties/format/properties/strict/type",keyword:"type",params:{type: schema6.properties.text.properties.format.properties.strict.type},message:"must be boolean,null"}];
return false;
}
var valid12 = _errs80 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data36.description !== undefined){
const _errs82 = errors;
if(typeof data36.description !== "string"){
validate21.errors = [{instancePath:instancePath+"/text/format/description",schemaPath:"#/properties/text/properties/format/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid12 = _errs82 === errors;
}
else {
var valid12 = true;
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/text/format",schemaPath:"#/properties/text/properties/format/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid11 = _errs73 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data35.verbosity !== undefined){
let data42 = data35.verbosity;
const _errs84 = errors;
if((typeof data42 !== "string") && (data42 !== null)){
validate21.errors = [{instancePath:instancePath+"/text/verbosity",schemaPath:"#/properties/text/properties/verbosity/type",keyword:"type",params:{type: schema6.properties.text.properties.verbosity.type},message:"must be string,null"}];
return false;
}
if(!((((data42 === "low") || (data42 === "medium")) || (data42 === "high")) || (data42 === null))){
validate21.errors = [{instancePath:instancePath+"/text/verbosity",schemaPath:"#/properties/text/properties/verbosity/enum",keyword:"enum",params:{allowedValues: schema6.properties.text.properties.verbosity.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid11 = _errs84 === errors;
}
else {
var valid11 = true;
}
}
}
}
var valid0 = _errs71 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.reasoning !== undefined){
let data43 = data.reasoning;
const _errs86 = errors;
if((!(data43 && typeof data43 == "object" && !Array.isArray(data43))) && (data43 !== null)){
validate21.errors = [{instancePath:instancePath+"/reasoning",schemaPath:"#/properties/reasoning/type",keyword:"type",params:{type: schema6.properties.reasoning.type},message:"must be object,null"}];
return false;
}
if(errors === _errs86){
if(data43 && typeof data43 == "object" && !Array.isArray(data43)){
if(data43.effort !== undefined){
let data44 = data43.effort;
const _errs88 = errors;
if((typeof data44 !== "string") && (data44 !== null)){
validate21.errors = [{instancePath:instancePath+"/reasoning/effort",schemaPath:"#/properties/reasoning/properties/effort/type",keyword:"type",params:{type: schema6.properties.reasoning.properties.effort.type},message:"must be string,null"}];
return false;
}
if(!(((((((data44 === "none") || (data44 === "minimal")) || (data44 === "low")) || (data44 === "medium")) || (data44 === "high")) || (data44 === "xhigh")) || (data44 === null))){
validate21.errors = [{instancePath:instancePath+"/reasoning/effort",schemaPath:"#/properties/reasoning/properties/effort/enum",keyword:"enum",params:{allowedValues: schema6.properties.reasoning.properties.effort.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid13 = _errs88 === errors;
}
else {
var valid13 = true;
}
if(valid13){
if(data43.summary !== undefined){
let data45 = data43.summary;
const _errs90 = errors;
if((typeof data45 !== "string") && (data45 !== null)){
validate21.errors = [{instancePath:instancePath+"/reasoning/summary",schemaPath:"#/properties/reasoning/properties/summary/type",keyword:"type",params:{type: schema6.properties.reasoning.properties.summary.type},message:"must be string,null"}];
return false;
}
if(!((((data45 === "auto") || (data45 === "concise")) || (data45 === "detailed")) || (data45 === null))){
validate21.errors = [{instancePath:instancePath+"/reasoning/summary",schemaPath:"#/properties/reasoning/properties/summary/enum",keyword:"enum",params:{allowedValues: schema6.properties.reasoning.properties.summary.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid13 = _errs90 === errors;
}
else {
var valid13 = true;
}
if(valid13){
if(data43.generate_summary !== undefined){
let data46 = data43.generate_summary;
const _errs92 = errors;
if((typeof data46 !== "string") && (data46 !== null)){
validate21.errors = [{instancePath:instancePath+"/reasoning/generate_summary",schemaPath:"#/properties/reasoning/properties/generate_summary/type",keyword:"type",params:{type: schema6.properties.reasoning.properties.generate_summary.type},message:"must be string,null"}];
return false;
}
if(!((((data46 === "auto") || (data46 === "concise")) || (data46 === "detailed")) || (data46 === null))){
validate21.errors = [{instancePath:instancePath+"/reasoning/generate_summary",schemaPath:"#/properties/reasoning/properties/generate_summary/enum",keyword:"enum",params:{allowedValues: schema6.properties.reasoning.properties.generate_summary.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid13 = _errs92 === errors;
}
else {
var valid13 = true;
}
}
}
}
}
var valid0 = _errs86 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.metadata !== undefined){
let data47 = data.metadata;
const _errs94 = errors;
if((!(data47 && typeof data47 == "object" && !Array.isArray(data47))) && (data47 !== null)){
validate21.errors = [{instancePath:instancePath+"/metadata",schemaPath:"#/properties/metadata/type",keyword:"type",params:{type: schema6.properties.metadata.type},message:"must be object,null"}];
return false;
}
if(errors === _errs94){
if(data47 && typeof data47 == "object" && !Array.isArray(data47)){
for(const key0 in data47){
const _errs97 = errors;
if(typeof data47[key0] !== "string"){
validate21.errors = [{instancePath:instancePath+"/metadata/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/metadata/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid14 = _errs97 === errors;
if(!valid14){
break;
}
}
}
}
var valid0 = _errs94 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.user !== undefined){
const _errs99 = errors;
if(typeof data.user !== "string"){
validate21.errors = [{instancePath:instancePath+"/user",schemaPath:"#/properties/user/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs99 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.safety_identifier !== undefined){
const _errs101 = errors;
if(typeof data.safety_identifier !== "string"){
validate21.errors = [{instancePath:instancePath+"/safety_identifier",schemaPath:"#/properties/safety_identifier/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs101 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.prompt_cache_key !== undefined){
const _errs103 = errors;
if(typeof data.prompt_cache_key !== "string"){
validate21.errors = [{instancePath:instancePath+"/prompt_cache_key",schemaPath:"#/properties/prompt_cache_key/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs103 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.include !== undefined){
let data52 = data.include;
const _errs105 = errors;
if((!(Array.isArray(data52))) && (data52 !== null)){
validate21.errors = [{instancePath:instancePath+"/include",schemaPath:"#/properties/include/type",keyword:"type",params:{type: schema6.properties.include.type},message:"must be array,null"}];
return false;
}
if(errors === _errs105){
if(Array.isArray(data52)){
var valid15 = true;
const len5 = data52.length;
for(let i5=0; i5<len5; i5++){
const _errs107 = errors;
if(typeof data52[i5] !== "string"){
validate21.errors = [{instancePath:instancePath+"/include/" + i5,schemaPath:"#/properties/include/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid15 = _errs107 === errors;
if(!valid15){
break;
}
}
}
}
var valid0 = _errs105 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.store !== undefined){
let data54 = data.store;
const _errs109 = errors;
if((typeof data54 !== "boolean") && (data54 !== null)){
validate21.errors = [{instancePath:instancePath+"/store",schemaPath:"#/properties/store/type",keyword:"type",params:{type: schema6.properties.store.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs109 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.truncation !== undefined){
let data55 = data.truncation;
const _errs111 = errors;
if((typeof data55 !== "string") && (data55 !== null)){
validate21.errors = [{instancePath:instancePath+"/truncation",schemaPath:"#/properties/truncation/type",keyword:"type",params:{type: schema6.properties.truncation.type},message:"must be string,null"}];
return false;
}
if(!(((data55 === "auto") || (data55 === "disabled")) || (data55 === null))){
validate21.errors = [{instancePath:instancePath+"/truncation",schemaPath:"#/properties/truncation/enum",keyword:"enum",params:{allowedValues: schema6.properties.truncation.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs111 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.service_tier !== undefined){
let data56 = data.service_tier;
const _errs113 = errors;
if((typeof data56 !== "string") && (data56 !== null)){
validate21.errors = [{instancePath:instancePath+"/service_tier",schemaPath:"#/properties/service_tier/type",keyword:"type",params:{type: schema6.properties.service_tier.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs113 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.background !== undefined){
let data57 = data.background;
const _errs115 = errors;
if((typeof data57 !== "boolean") && (data57 !== null)){
validate21.errors = [{instancePath:instancePath+"/background",schemaPath:"#/properties/background/type",keyword:"type",params:{type: schema6.properties.background.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs115 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.previous_response_id !== undefined){
let data58 = data.previous_response_id;
const _errs117 = errors;
if((typeof data58 !== "string") && (data58 !== null)){
validate21.errors = [{instancePath:instancePath+"/previous_response_id",schemaPath:"#/properties/previous_response_id/type",keyword:"type",params:{type: schema6.properties.previous_response_id.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs117 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}
